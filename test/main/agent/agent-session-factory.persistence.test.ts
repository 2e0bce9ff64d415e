import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { type AgentSession, SessionManager } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import {
  createDeskSession,
  listWorkspaceSessions,
  type SessionChoice,
} from "../../../src/main/agent/agent-session-factory";
import { DeskModels } from "../../../src/main/agent/model-runtime";
import { fakeRunCommand, tempDir, writeScript } from "./session-harness";

// Before any import: Pi reads its agent dir when imported, and must not try to download rg/fd.
const agentDir = process.env.PI_CODING_AGENT_DIR as string;

const sessions: AgentSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
});

const script = writeScript([
  [{ type: "toolCall", id: "call-1", name: "run_command", arguments: { command: "git status" } }],
  [{ type: "text", text: "The tree is clean." }],
  [{ type: "text", text: "Welcome back." }],
]);

/** A session as the app would make it after a start: a new runtime, a new tool. */
async function openSession(workspace: string, open?: SessionChoice) {
  const models = await DeskModels.create({ env: { PI_DESK_SCRIPT: script } });
  const { session } = await createDeskSession({
    workspace,
    models,
    runCommandTool: fakeRunCommand().tool,
    open,
  });
  sessions.push(session);
  return session;
}

function roles(session: AgentSession) {
  return session.messages.map((message) => message.role);
}

describe("session files", () => {
  it("are written under the agent dir's sessions folder, where the pi CLI looks", async () => {
    const workspace = tempDir("ws");
    const session = await openSession(workspace);
    expect(session.sessionFile).toBeDefined();
    // Pi writes the file once the conversation has a message, not when the session is created.
    expect(existsSync(session.sessionFile ?? "")).toBe(false);

    await session.prompt("is the tree clean?");

    const file = session.sessionFile ?? "";
    expect(existsSync(file)).toBe(true);
    expect(file.endsWith(".jsonl")).toBe(true);
    const folder = `--${workspace.replace(/^\//, "").replaceAll("/", "-")}--`;
    expect(dirname(file)).toBe(join(realpathSync(agentDir), "sessions", folder));
  });

  it("give the conversation back after a restart, and it goes on from there", async () => {
    const workspace = tempDir("ws");
    const first = await openSession(workspace);
    await first.prompt("is the tree clean?");
    const file = first.sessionFile ?? "";
    const before = structuredClone(first.messages);
    first.dispose();

    // The file alone holds the conversation...
    const reopened = SessionManager.open(file);
    expect(reopened.buildSessionContext().messages).toEqual(JSON.parse(JSON.stringify(before)));

    // ...and a new session on it starts where the old one stopped.
    const second = await openSession(workspace, { kind: "open", path: file });
    expect(second.sessionFile).toBe(file);
    expect(roles(second)).toEqual(["system", "user", "assistant", "toolResult", "assistant"]);
    // A new runtime plays its script from the first turn again: the tool call, then the answer.
    await second.prompt("again, please");
    expect(roles(second).slice(5)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(SessionManager.open(file).buildSessionContext().messages).toHaveLength(9);
  });

  it("are listed for their workspace only, most recent first, and continue-latest picks the newest", async () => {
    const workspace = tempDir("ws");
    const older = await openSession(workspace);
    await older.prompt("first chat");
    const newer = await openSession(workspace);
    await newer.prompt("second chat");
    const elsewhere = await openSession(tempDir("other-ws"));
    await elsewhere.prompt("not this workspace");

    const listed = await listWorkspaceSessions(workspace);
    expect(listed.map((session) => session.path)).toEqual([newer.sessionFile, older.sessionFile]);
    expect(listed[0]).toMatchObject({ firstMessage: "second chat", id: newer.sessionId });
    expect(listed[0]?.messageCount).toBeGreaterThanOrEqual(2);

    const continued = await openSession(workspace, { kind: "continue-latest" });
    expect(continued.sessionFile).toBe(newer.sessionFile);
    expect(await listWorkspaceSessions(tempDir("empty-ws"))).toEqual([]);
  });

  it("of another workspace, or missing, are refused with what to do", async () => {
    const other = await openSession(tempDir("other-ws"));
    await other.prompt("hello");
    const workspace = tempDir("ws");

    await expect(openSession(workspace, { kind: "open", path: other.sessionFile ?? "" })).rejects.toThrow(
      /belongs to the workspace .*other-ws.*Open that workspace to continue it/,
    );
    await expect(
      openSession(workspace, { kind: "open", path: join(workspace, "nope.jsonl") }),
    ).rejects.toThrow("does not exist. Choose one from the workspace's past sessions.");
  });
});
