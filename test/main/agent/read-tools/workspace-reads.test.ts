import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createWorkspaceReadTools } from "../../../../src/main/agent/read-tools/workspace-reads";

const root = mkdtempSync(join(tmpdir(), "pi-desk-reads-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = join(root, "repo");
const outside = join(root, "secrets");
const privateData = join(workspace, ".pi-desk-data");
mkdirSync(join(workspace, "src"), { recursive: true });
mkdirSync(outside);
mkdirSync(privateData);
writeFileSync(join(workspace, "src", "main.ts"), "export const answer = 42;\n");
writeFileSync(join(outside, "id_ed25519"), "PRIVATE KEY\n");
writeFileSync(join(privateData, "audit.jsonl"), "{}\n");
symlinkSync(join(outside, "id_ed25519"), join(workspace, "key-link"));
symlinkSync(outside, join(workspace, "secrets-link"));

type Tools = Record<string, ReturnType<typeof createWorkspaceReadTools>[number]>;

function toolsFor(dir: string, hidden: string[]): Tools {
  return Object.fromEntries(createWorkspaceReadTools(dir, hidden).map((tool) => [tool.name, tool]));
}

const tools = toolsFor(workspace, [privateData]);

/** The tool's text, or its error message, as the model would read it. */
async function call(name: string, params: object, from: Tools = tools): Promise<string> {
  try {
    const result = await from[name]?.execute(
      "call-1",
      params as never,
      undefined,
      undefined,
      undefined as never,
    );
    return (result?.content ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");
  } catch (error) {
    return `ERROR ${(error as Error).message}`;
  }
}

describe("the agent's read-only tools", () => {
  it("read, grep, find and ls work inside the workspace", async () => {
    expect(await call("read", { path: "src/main.ts" })).toContain("answer = 42");
    expect(await call("grep", { pattern: "answer", path: "src" })).toContain("main.ts");
    expect(await call("ls", { path: "src" })).toContain("main.ts");
  });

  it.each([
    ["read", { path: join(outside, "id_ed25519") }],
    ["read", { path: "../secrets/id_ed25519" }],
    ["read", { path: "key-link" }],
    ["read", { path: "secrets-link/id_ed25519" }],
    ["read", { path: "@../secrets/id_ed25519" }],
    ["read", { path: `file://${join(outside, "id_ed25519")}` }],
    ["read", { path: ".pi-desk-data/audit.jsonl" }],
    ["grep", { pattern: "PRIVATE", path: outside }],
    ["grep", { pattern: "PRIVATE", path: "secrets-link" }],
    ["find", { pattern: "*", path: "~" }],
    ["ls", { path: "/" }],
    ["ls", { path: ".." }],
  ])("%s refuses %j and shows nothing of it", async (name, params) => {
    const text = await call(name, params);
    expect(text).toMatch(/^ERROR .* works inside the workspace .* (is outside the workspace|keeps private)/);
    expect(text).not.toContain("PRIVATE KEY");
    expect(text).toContain("run_command");
  });

  it("refuses the home folder's files the way Pi spells them", async () => {
    expect(await call("read", { path: "~/.ssh/id_ed25519" })).toContain(`and ~/.ssh/id_ed25519 is outside`);
    expect(homedir()).not.toBe(workspace);
  });
});

// Pi Desk's data folder at the workspace's root and Pi's agent folder nested (a name without a dot, with a
// space and glob characters, so neither a dot rule nor an unescaped glob could hide it by chance), next to a look-alike that
// is not hidden. Once in a git repository (find runs fd there) and once outside one (where this machine's
// fd 8.6 refuses Pi's arguments and find runs on Node's glob).
describe.each([
  ["a git repository", true],
  ["a plain folder", false],
])("hidden folders below the path asked, in %s", (_label, git) => {
  const dir = join(root, git ? "git-work" : "plain-work");
  const files: Record<string, string> = {
    "src/app.ts": "const TOKEN = 'visible-root';\n",
    "sub/pi agent-notes/notes.txt": "TOKEN visible-neighbour\n",
    "sub/lib.ts": "TOKEN visible-nested\n",
    ".pi-desk-data/audit.jsonl": "TOKEN hidden-data\n",
    ".pi-desk-data/outputs/run.log": "TOKEN hidden-data-deep\n",
    "sub/pi agent [x]/auth.json": "TOKEN hidden-agent\n",
    "sub/pi agent [x]/sessions/s.jsonl": "TOKEN hidden-agent-deep\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  if (git) execFileSync("git", ["init", "-q", dir]);
  const hidden = toolsFor(dir, [join(dir, ".pi-desk-data"), join(dir, "sub", "pi agent [x]")]);
  const shows = (text: string, ...visible: string[]) => {
    for (const name of visible) expect(text).toContain(name);
    expect(text).not.toMatch(
      /hidden-|audit\.jsonl|run\.log|auth\.json|s\.jsonl|\.pi-desk-data|pi agent \[x\]/,
    );
  };

  it("read refuses a file in either, at the root and nested", async () => {
    for (const path of [
      ".pi-desk-data/audit.jsonl",
      "sub/pi agent [x]/auth.json",
      "./sub/../sub/pi agent [x]/sessions/s.jsonl",
    ]) {
      expect(await call("read", { path }, hidden)).toMatch(/^ERROR .* is in a folder Pi Desk keeps private/);
    }
  });

  it.each([
    [{ pattern: "TOKEN" }, ["visible-root", "visible-nested", "visible-neighbour"]],
    [{ pattern: "TOKEN", path: "." }, ["visible-root", "visible-nested"]],
    [{ pattern: "TOKEN", path: "sub" }, ["visible-nested", "visible-neighbour"]],
    [{ pattern: "TOKEN", glob: "**" }, ["visible-root", "visible-nested"]],
    [{ pattern: "TOKEN", glob: ".pi-desk-data/**" }, []],
    [{ pattern: "TOKEN", path: "sub", glob: "pi agent [x]/**" }, []],
    [{ pattern: "TOKEN", glob: "*.json*", context: 2 }, []],
  ])("grep %j leaves both out", async (params, visible) => {
    const text = await call("grep", params, hidden);
    expect(text).not.toMatch(/^ERROR/);
    shows(text, ...visible);
  });

  it.each([
    [{ pattern: "*" }, ["src/app.ts", "sub/lib.ts", "sub/pi agent-notes/notes.txt"]],
    [{ pattern: "*.json*", path: "." }, []],
    [{ pattern: "**/*" }, ["src/app.ts"]],
    [{ pattern: "*", path: "sub" }, ["lib.ts", "pi agent-notes/notes.txt"]],
    [{ pattern: "pi agent [x]/**", path: "sub" }, []],
  ])("find %j leaves both out", async (params, visible) => {
    const text = await call("find", params, hidden);
    expect(text).not.toMatch(/^ERROR/);
    shows(text, ...visible);
  });

  it("ls lists neither, at the root or in the folder holding one", async () => {
    const top = await call("ls", { path: "." }, hidden);
    shows(top, "src/", "sub/");
    expect(top).not.toContain(".pi-desk-data");
    const sub = await call("ls", { path: "sub" }, hidden);
    shows(sub, "lib.ts", "pi agent-notes/");
    expect(sub.split("\n")).not.toContain("pi agent [x]/");
    expect(await call("ls", { path: "sub/pi agent [x]" }, hidden)).toMatch(/^ERROR .* keeps private/);
  });
});
