import { type AgentSession, ModelRuntime } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { createDeskSession } from "../../../src/main/agent/agent-session-factory";
import { DeskModels } from "../../../src/main/agent/model-runtime";
import { fakeRunCommand, nextEvent, recordEvents, tempDir, trace, writeScript } from "./session-harness";

const sessions: AgentSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
});

const longCommand = [
  [{ type: "toolCall", id: "call-1", name: "run_command", arguments: { command: "sleep 600" } }],
  [{ type: "text", text: "After the stop." }],
];

async function sessionWith(turns: unknown, run: Parameters<typeof fakeRunCommand>[0]) {
  const models = await DeskModels.create({ env: { PI_DESK_SCRIPT: writeScript(turns) } });
  const runCommand = fakeRunCommand(run);
  const { session } = await createDeskSession({
    workspace: tempDir("ws"),
    models,
    runCommandTool: runCommand.tool,
  });
  sessions.push(session);
  return { session, calls: runCommand.calls, events: recordEvents(session) };
}

/** A command that runs until its signal aborts, then fails as an aborted command does. */
function untilAborted(_command: string, signal: AbortSignal | undefined): Promise<string> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener("abort", () => reject(new Error("Command aborted")), { once: true });
  });
}

describe("session.abort() during a tool call", () => {
  it("aborts the tool's signal, records the tool's error, and settles as aborted", async () => {
    const { session, calls, events } = await sessionWith(longCommand, untilAborted);
    // tool_execution_start comes before the tool's execute() runs; the first update comes from inside it.
    const running = nextEvent(session, (event) => event.type === "tool_execution_update");
    const prompt = session.prompt("sleep a while");
    await running;
    expect(calls[0]?.signal?.aborted).toBe(false);

    await session.abort();
    await prompt;

    expect(calls[0]?.signal?.aborted).toBe(true);
    const afterStart = trace(events).slice(trace(events).indexOf("tool_execution_start"));
    expect(afterStart).toEqual([
      "tool_execution_start",
      "tool_execution_update",
      "tool_execution_end",
      ...["message_start", "message_end"], // the tool result, an error
      "turn_end",
      "turn_start", // the agent's next turn, aborted before any request
      ...["message_start", "message_end"],
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({
      toolCallId: "call-1",
      isError: true,
      result: { content: [{ type: "text", text: "Command aborted" }] },
    });
    expect(session.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", content: [] });
    expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
    expect(session.isStreaming).toBe(false);

    // The script's next turn was not spent on the aborted run: the next prompt gets it.
    await session.prompt("go on");
    expect(session.messages.at(-1)).toMatchObject({ content: [{ type: "text", text: "After the stop." }] });
  });

  it("waits for a tool that ignores its signal: nothing settles until the tool returns", async () => {
    let finished = 0;
    const { session, events } = await sessionWith(longCommand, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = Date.now();
      return "finished anyway";
    });
    const running = nextEvent(session, (event) => event.type === "tool_execution_update");
    const prompt = session.prompt("sleep a while");
    await running;

    await session.abort();
    const settledAt = Date.now();
    await prompt;

    expect(finished).toBeGreaterThan(0);
    expect(settledAt).toBeGreaterThanOrEqual(finished);
    expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({ isError: false });
    expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
  });

  it("during a scripted delay ends the request at once as aborted", async () => {
    const { session, events } = await sessionWith(
      [
        [
          { type: "delay", ms: 60_000 },
          { type: "text", text: "never" },
        ],
      ],
      undefined,
    );
    const waiting = nextEvent(session, (event) => event.type === "turn_start");
    const prompt = session.prompt("hello?");
    await waiting;
    const started = Date.now();
    await session.abort();
    await prompt;

    expect(Date.now() - started).toBeLessThan(2_000);
    expect(session.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
  });
});

describe("session.dispose()", () => {
  it("leaves no timers, sockets or other handles behind", async () => {
    // The first runtime loads Pi's lazy modules; count handles only after that.
    await ModelRuntime.create({ modelsPath: null, refreshOnCreate: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = countHandles();

    const { session } = await sessionWith(
      [
        [
          { type: "delay", ms: 50 },
          { type: "toolCall", name: "run_command", arguments: { command: "true" } },
        ],
        [{ type: "text", text: "done" }],
      ],
      undefined,
    );
    await session.prompt("run it");
    session.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));

    const after = countHandles();
    for (const [kind, count] of after) expect(count, kind).toBeLessThanOrEqual(before.get(kind) ?? 0);
  });
});

/** Live handles by kind (Timeout, TCPSocketWrap, FSReqPromise, ...). */
function countHandles(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}
