import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
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

const tools = Object.fromEntries(
  createWorkspaceReadTools(workspace, [privateData]).map((tool) => [tool.name, tool]),
);

/** The tool's text, or its error message, as the model would read it. */
async function call(name: string, params: object): Promise<string> {
  try {
    const result = await tools[name]?.execute(
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
