import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  sandboxOnHere,
  type Turn,
} from "./host-harness";

const AGENT_SECRET = "agent-folder-secret-7f3a";
const DATA_SECRET = "data-folder-secret-91c2";
const VISIBLE = "visible-workspace-line-42";

const cleanups: (() => Promise<void>)[] = [];
const agentDirBefore = process.env.PI_CODING_AGENT_DIR;
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  process.env.PI_CODING_AGENT_DIR = agentDirBefore;
  delete process.env.PI_DESK_SCRIPT;
});

/**
 * A host whose Pi agent folder and data folder both lie inside the workspace, where the read tools and
 * the sandbox show everything unless the host tells them to hide those two (the temp folder that
 * holds everything in the other tests is hidden from commands anyway, so it would prove nothing).
 */
async function hostWithFoldersInside(turns: Turn[]) {
  const root = mkdtempSync(join(tmpdir(), "pi-desk-hidden-"));
  const workspace = join(root, "repo");
  const agentDir = join(workspace, "pi-agent");
  const dataRoot = join(workspace, "desk-data");
  mkdirSync(join(workspace, "src"), { recursive: true });
  mkdirSync(agentDir);
  mkdirSync(dataRoot);
  writeFileSync(join(workspace, "src", "a.txt"), `${VISIBLE}\n`);
  writeFileSync(join(agentDir, "auth.json"), `{"anthropic":{"key":"${AGENT_SECRET}"}}\n`);
  writeFileSync(join(dataRoot, "notes.txt"), `${DATA_SECRET}\n`);
  writeFileSync(join(root, "script.json"), JSON.stringify(turns));
  process.env.PI_DESK_SCRIPT = join(root, "script.json");
  // The host takes Pi's agent folder from Pi, which reads this variable.
  process.env.PI_CODING_AGENT_DIR = agentDir;
  const host = await DeskHost.create({
    shell: "browser",
    version: "test",
    workspace: { path: workspace, name: "repo" },
    dataRoot,
    changes: false,
  });
  cleanups.push(async () => {
    await host.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  return { host, workspace };
}

/** What the model was told, as Pi stored the conversation. */
function sessionText(host: DeskHost): string {
  return readFileSync(host.state().session?.file as string, "utf8");
}

const tool = (id: string, name: string, args: object) => ({
  type: "toolCall" as const,
  id,
  name,
  arguments: args,
});

describe("the host hides its own folders and Pi's, wherever they are", () => {
  it("from the read tools: read refuses them, grep, find and ls leave them out", async () => {
    const { host } = await hostWithFoldersInside([
      [
        tool("t1", "read", { path: "pi-agent/auth.json" }),
        tool("t2", "read", { path: "desk-data/notes.txt" }),
        tool("t3", "grep", { pattern: "secret|visible", path: "." }),
        tool("t4", "find", { pattern: "*", path: "." }),
        tool("t5", "ls", { path: "." }),
      ],
      [{ type: "text", text: "Looked." }],
    ]);
    await calls(host).prompt({ text: "look around" });
    await assistantSaid(host, "Looked.");
    const told = sessionText(host);
    expect(told).toContain(VISIBLE);
    expect(told).toContain("src/a.txt");
    expect(told).not.toContain(AGENT_SECRET);
    expect(told).not.toContain(DATA_SECRET);
    expect(told.match(/is in a folder Pi Desk keeps private/g)?.length ?? 0).toBe(2);
    // Neither folder is named in a listing (the tool calls' own arguments name them, so look at results only).
    const results = host
      .state()
      .session?.transcript.flatMap((item) =>
        item.kind === "tool" && item.name !== "read" ? [item.result ?? ""] : [],
      )
      .join("\n");
    expect(results).toContain("src/");
    expect(results).not.toMatch(/pi-agent|desk-data|auth\.json|notes\.txt/);
  });

  it.runIf(sandboxOnHere)("from a sandboxed command in the workspace", async () => {
    const { host } = await hostWithFoldersInside([
      [
        runCommand(
          "c1",
          "cat pi-agent/auth.json desk-data/notes.txt; ls -a pi-agent desk-data; grep -r -e secret -e visible .",
        ),
      ],
      [{ type: "text", text: "Ran." }],
    ]);
    await calls(host).setSandbox({ enabled: true, network: false });
    await calls(host).prompt({ text: "look around" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "c1"),
      decision: { kind: "approve" },
    });
    await assistantSaid(host, "Ran.");
    const output = commandOf(host, "c1")?.output ?? "";
    expect(output).toContain(VISIBLE);
    expect(output).not.toContain(AGENT_SECRET);
    expect(output).not.toContain(DATA_SECRET);
    expect(output).not.toMatch(/auth\.json\n|notes\.txt\n/);
  });
});
