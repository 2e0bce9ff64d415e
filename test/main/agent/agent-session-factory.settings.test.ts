import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentSession, defineTool } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { createDeskSession, type DeskSessionOptions } from "../../../src/main/agent/agent-session-factory";
import { DeskModels } from "../../../src/main/agent/model-runtime";
import { fakeRunCommand, tempDir, writeScript } from "./session-harness";

const sessions: AgentSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
});

async function session(options: Partial<DeskSessionOptions> = {}) {
  const models = await DeskModels.create({ env: { PI_DESK_SCRIPT: writeScript([]) } });
  const { session } = await createDeskSession({
    workspace: tempDir("ws"),
    models,
    runCommandTool: fakeRunCommand().tool,
    ...options,
  });
  sessions.push(session);
  return session;
}

/** A workspace whose `.pi/extensions` holds an extension that leaves a mark when it loads. */
function workspaceWithExtension() {
  const workspace = tempDir("ws");
  const marker = join(workspace, "extension-ran");
  mkdirSync(join(workspace, ".pi", "extensions"), { recursive: true });
  writeFileSync(
    join(workspace, ".pi", "extensions", "mark.ts"),
    `import { writeFileSync } from "node:fs";\nexport default function () { writeFileSync(${JSON.stringify(marker)}, "ran"); }\n`,
  );
  return { workspace, marker };
}

describe("createDeskSession", () => {
  it("keeps cache warming off, so Pi sends nothing between runs", async () => {
    const desk = await session();
    await desk.prompt("hi");
    expect(desk.cacheWarmingStatus).toMatchObject({ state: "inactive", reason: "cache warming disabled" });
  });

  it("adds the host's words to Pi's system prompt", async () => {
    const desk = await session({ appendSystemPrompt: ["Every command waits for the person's approval."] });
    expect(desk.systemPrompt).toContain("Every command waits for the person's approval.");
  });

  it("runs no extension a workspace brings, unless told to trust it and load extensions", async () => {
    const untrusted = workspaceWithExtension();
    await session({ workspace: untrusted.workspace });
    await session({ workspace: untrusted.workspace, loadExtensions: true });
    expect(existsSync(untrusted.marker)).toBe(false);

    const trusted = workspaceWithExtension();
    await session({ workspace: trusted.workspace, loadExtensions: true, trustProject: true });
    expect(existsSync(trusted.marker)).toBe(true);
  });

  it("refuses a command tool that is not named run_command: the allowlist would drop it silently", async () => {
    const misnamed = defineTool({
      name: "bash",
      label: "Bash",
      description: "Runs a command.",
      parameters: Type.Object({ command: Type.String() }),
      execute: async () => ({ content: [{ type: "text", text: "" }], details: {} }),
    });
    await expect(session({ runCommandTool: misnamed })).rejects.toThrow(
      'The command tool is named "bash"; name it "run_command"',
    );
  });
});
