import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentSession, AgentSessionEvent } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { createDeskSession, SESSION_TOOLS } from "../../../src/main/agent/agent-session-factory";
import { DeskModels } from "../../../src/main/agent/model-runtime";
import { END_OF_SCRIPT, type ScriptRequest } from "../../../src/main/agent/scripted-model";
import { fakeRunCommand, recordEvents, tempDir, trace, writeScript } from "./session-harness";

const sessions: AgentSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
});

async function scriptedSession(
  turns: unknown,
  run?: Parameters<typeof fakeRunCommand>[0],
  workspace = tempDir("ws"),
) {
  const requests: ScriptRequest[] = [];
  const models = await DeskModels.create({
    env: { PI_DESK_SCRIPT: writeScript(turns) },
    onScriptRequest: (request) => requests.push(request),
  });
  const runCommand = fakeRunCommand(run);
  const { session } = await createDeskSession({
    workspace,
    models,
    runCommandTool: runCommand.tool,
  });
  sessions.push(session);
  return { session, events: recordEvents(session), requests, calls: runCommand.calls };
}

function deltas(events: AgentSessionEvent[], type: "text_delta" | "thinking_delta" | "toolcall_delta") {
  return events
    .flatMap((event) => (event.type === "message_update" ? [event.assistantMessageEvent] : []))
    .flatMap((inner) => (inner.type === type ? [inner.delta] : []))
    .join("");
}

describe("a session with the scripted model", () => {
  it("streams the script's text as message_update deltas and settles", async () => {
    const { session, events } = await scriptedSession([
      [{ type: "text", text: "Hello from the script, in pieces." }],
    ]);
    expect(session.getActiveToolNames()).toEqual([...SESSION_TOOLS]);

    await session.prompt("hi");

    expect(deltas(events, "text_delta")).toBe("Hello from the script, in pieces.");
    expect(trace(events).filter((type) => type.includes("text_delta")).length).toBeGreaterThan(1);
    expect(trace(events).at(-1)).toBe("agent_settled");
    expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
    const last = session.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "stop", provider: "pi-desk-script" });
  });

  it("runs a scripted run_command call with its arguments and sends the result with the next request", async () => {
    const { session, events, requests, calls } = await scriptedSession([
      [
        { type: "thinking", thinking: "Let me look." },
        { type: "text", text: "Listing files." },
        { type: "toolCall", id: "call-1", name: "run_command", arguments: { command: "ls -la" } },
      ],
      [{ type: "text", text: "There are files." }],
    ]);

    await session.prompt("what is here?");

    expect(calls.map(({ toolCallId, command }) => ({ toolCallId, command }))).toEqual([
      { toolCallId: "call-1", command: "ls -la" },
    ]);
    const run = trace(events).filter((type) => !type.includes("_delta"));
    expect(run).toEqual([
      "agent_start",
      "turn_start",
      ...["message_start", "message_end"], // the system message: prompt and tool declarations
      ...["message_start", "message_end"], // the person's prompt
      "message_start",
      ...["message_update:thinking_start", "message_update:thinking_end"],
      ...["message_update:text_start", "message_update:text_end"],
      ...["message_update:toolcall_start", "message_update:toolcall_end"],
      "message_end",
      "tool_execution_start",
      "tool_execution_update",
      "tool_execution_end",
      ...["message_start", "message_end"], // the tool result
      "turn_end",
      "turn_start",
      "message_start",
      ...["message_update:text_start", "message_update:text_end"],
      "message_end",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    expect(deltas(events, "thinking_delta")).toBe("Let me look.");
    expect(JSON.parse(deltas(events, "toolcall_delta"))).toEqual({ command: "ls -la" });
    expect(events.find((event) => event.type === "tool_execution_start")).toMatchObject({
      toolCallId: "call-1",
      toolName: "run_command",
      args: { command: "ls -la" },
    });
    expect(events.find((event) => event.type === "tool_execution_update")).toMatchObject({
      toolCallId: "call-1",
      partialResult: { content: [{ type: "text", text: "started" }] },
    });
    expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({
      toolCallId: "call-1",
      result: { content: [{ type: "text", text: "ran: ls -la" }] },
      isError: false,
    });

    // What the model was sent the second time: its own tool call, then the tool's result.
    expect(requests.map((request) => request.turn)).toEqual([1, 2]);
    const transcript = requests[1]?.context.messages ?? [];
    expect(transcript.at(-1)).toMatchObject({
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "run_command",
      isError: false,
      content: [{ type: "text", text: "ran: ls -la" }],
    });
    expect(session.messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
  });

  it("runs grep and find offline in a folder that is not a git repository, and read only inside it", async () => {
    const workspace = tempDir("ws");
    // Not a git repository: there Pi's find passes fd `--no-require-git`, which Debian 12's fd 8.6 rejects,
    // and the session's find falls back to a glob of its own (find-tool.ts).
    writeFileSync(join(workspace, "notes.txt"), "the needle is here\n");
    const { session, events } = await scriptedSession(
      [
        [
          { type: "toolCall", id: "find-1", name: "find", arguments: { pattern: "*.txt" } },
          { type: "toolCall", id: "grep-1", name: "grep", arguments: { pattern: "needle" } },
          { type: "toolCall", id: "read-1", name: "read", arguments: { path: "/etc/hostname" } },
        ],
        [{ type: "text", text: "Found it." }],
      ],
      undefined,
      workspace,
    );

    await session.prompt("where is the needle?");

    const results = events.flatMap((event) => (event.type === "tool_execution_end" ? [event] : []));
    const text = (id: string) => {
      const end = results.find((event) => event.toolCallId === id);
      return JSON.stringify({ isError: end?.isError, content: end?.result.content });
    };
    // When grep fails with "not available and could not be downloaded", install rg (see FACTS.md).
    expect(text("find-1")).toContain('"isError":false');
    expect(text("find-1")).toContain("notes.txt");
    expect(text("grep-1")).toContain('"isError":false');
    expect(text("grep-1")).toContain("notes.txt:1: the needle is here");
    // The session's read-only tools stay in the workspace (workspace-reads.ts).
    expect(text("read-1")).toContain('"isError":true');
    expect(text("read-1")).toContain("is outside the workspace");
  });

  it("answers (end of script) once the script has run out, as often as it is asked", async () => {
    const { session, requests } = await scriptedSession([[{ type: "text", text: "only turn" }]]);

    for (const text of ["one", "two", "three"]) await session.prompt(text);

    const answers = session.messages.flatMap((message) =>
      message.role === "assistant" ? message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])) : [],
    );
    expect(answers).toEqual(["only turn", END_OF_SCRIPT, END_OF_SCRIPT]);
    expect(requests.map((request) => request.turn)).toEqual([1, undefined, undefined]);
  });

  it("ends a turn with an error block as a provider error: stopReason error with the message", async () => {
    const { session, events } = await scriptedSession([
      [
        { type: "text", text: "Half an answer" },
        { type: "error", message: "400 invalid request: scripted failure" },
      ],
    ]);

    await expect(session.prompt("hi")).resolves.toBeUndefined();

    expect(session.messages.at(-1)).toMatchObject({
      role: "assistant",
      stopReason: "error",
      errorMessage: "400 invalid request: scripted failure",
      content: [{ type: "text", text: "Half an answer" }],
    });
    expect(events.find((event) => event.type === "agent_end")).toMatchObject({ willRetry: false });
    expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
  });

  it("waits for a delay block before the turn streams", async () => {
    const { session } = await scriptedSession([
      [
        { type: "delay", ms: 300 },
        { type: "text", text: "slow" },
      ],
    ]);
    const started = Date.now();
    await session.prompt("hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
