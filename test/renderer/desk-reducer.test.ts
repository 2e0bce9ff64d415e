import { describe, expect, it } from "vitest";
import {
  type DeskAction,
  type DeskView,
  deskReducer,
  initialView,
} from "../../src/renderer/src/state/desk-reducer";
import type { ChatEventBody, HostEventBody, WorkspaceEventBody } from "../../src/shared/host-events";
import type { HostState } from "../../src/shared/host-state";
import type { AssistantItem } from "../../src/shared/transcript";
import { chat1, hostState, pendingCommand, repo, runningCommand, session, someModels } from "./fixtures";

/** An action as a test writes it: host events without their number and ids, which `step` adds. */
type LooseAction = DeskAction | HostEventBody | ChatEventBody | WorkspaceEventBody;
/** Numbers an event as the next of the host's stream, in the shown chat (or workspace) unless it names one. */
function stamp(view: DeskView, action: LooseAction): DeskAction {
  if (action.type === "connection" || action.type === "state" || "seq" in action) return action as DeskAction;
  const ids = { chatId: view.host?.chatId ?? "chat-1", workspaceId: view.host?.workspace?.id ?? "w1" };
  return { ...ids, ...action, seq: view.seq + 1 } as DeskAction;
}
const step = (view: DeskView, action: LooseAction) => deskReducer(view, stamp(view, action));
const reduce = (view: DeskView, ...actions: LooseAction[]) => actions.reduce(step, view);
const known = (state: HostState = hostState()) => deskReducer(initialView, { type: "state", state });
const answer = (overrides: Partial<AssistantItem> = {}): AssistantItem => ({
  kind: "assistant",
  id: "a1",
  text: "",
  thinking: "",
  streaming: true,
  ...overrides,
});

describe("deskReducer: states and the connection", () => {
  it("starts connecting with nothing known", () => {
    expect(initialView).toEqual({ host: null, connection: { kind: "connecting" }, seq: 0, stale: false });
  });

  it("takes a state whole, replacing everything it had", () => {
    const before = reduce(
      known(),
      { type: "transcript-add", item: { kind: "user", id: "u1", text: "hi" } },
      { type: "command-update", command: pendingCommand() },
      { type: "rules-changed", rules: [] },
    );
    const fresh = hostState({ workspace: null, session: null, limits: null });
    const after = step(before, { type: "state", state: fresh });
    expect(after.host).toBe(fresh);
  });

  it("tracks the connection without losing the host state", () => {
    const view = known();
    const lost = step(view, { type: "connection", status: { kind: "disconnected", reason: "gone" } });
    expect(lost.connection).toEqual({ kind: "disconnected", reason: "gone" });
    expect(lost.host).toBe(view.host);
  });

  it.each<LooseAction>([
    { type: "session-status", running: true },
    { type: "transcript-add", item: { kind: "user", id: "u1", text: "hi" } },
    { type: "transcript-update", item: { kind: "user", id: "u1", text: "hi" } },
    { type: "assistant-delta", id: "a1", text: "x" },
    { type: "command-update", command: pendingCommand() },
    { type: "command-output", id: "call-1", output: "x", totalBytes: 1, totalLines: 1 },
    { type: "rules-changed", rules: [] },
    { type: "models-changed", models: someModels },
  ])("ignores $type before the first state (the state carries it)", (event) => {
    expect(step(initialView, event)).toBe(initialView);
  });

  it("ignores session events while no conversation is open", () => {
    const view = known(hostState({ session: null }));
    for (const event of [
      { type: "session-status", running: true },
      { type: "transcript-add", item: { kind: "user", id: "u1", text: "hi" } },
    ] satisfies LooseAction[]) {
      expect(step(view, event).host).toBe(view.host);
    }
  });

  it("ignores an event type it does not know, from a newer host", () => {
    const view = known();
    expect(step(view, { type: "from-the-future" } as unknown as LooseAction).host).toBe(view.host);
  });
});

describe("deskReducer: many chats, one numbered stream", () => {
  const other = { ...chat1, id: "chat-2", title: "other" };
  const twoChats = () => known(hostState({ chats: [chat1, other], seq: 10 }));

  it("drops what the state already holds, and turns stale on a gap until it has the state again", () => {
    const view = twoChats();
    const old = { type: "session-status", running: true, chatId: "chat-1", seq: 10 } as const;
    expect(step(view, old)).toBe(view);
    const gap = step(view, { type: "session-status", running: true, chatId: "chat-1", seq: 12 });
    expect(gap.stale).toBe(true);
    expect(gap.host).toBe(view.host);
    // Nothing applies while stale; the state asked for again clears it.
    expect(step(gap, { type: "session-status", running: true, chatId: "chat-1", seq: 13 })).toBe(gap);
    const again = step(gap, { type: "state", state: hostState({ seq: 13 }) });
    expect(again).toMatchObject({ stale: false, seq: 13 });
  });

  it("keeps another chat's events out of the shown chat, and its waiting commands in the inbox, oldest first", () => {
    const mine = pendingCommand({ id: "call-1", approvalId: "a-1" });
    const theirs = pendingCommand({ id: "call-1", approvalId: "a-2", command: "ls" });
    const view = reduce(
      twoChats(),
      { type: "command-update", command: theirs, chatId: "chat-2" },
      { type: "transcript-add", item: { kind: "user", id: "u1", text: "not here" }, chatId: "chat-2" },
      { type: "command-update", command: mine },
    );
    expect(view.host?.session?.transcript).toEqual([]);
    expect(view.host?.session?.commands).toEqual({ "call-1": mine });
    expect(view.host?.inbox).toEqual([
      { kind: "command", chatId: "chat-2", command: theirs },
      { kind: "command", chatId: "chat-1", command: mine },
    ]);
    // Answered in its chat: it leaves the inbox, the other stays.
    const answered = step(view, {
      type: "command-update",
      command: runningCommand({ id: "call-1" }),
      chatId: "chat-2",
    });
    expect(answered.host?.inbox).toEqual([{ kind: "command", chatId: "chat-1", command: mine }]);
  });

  it("follows the chats' summaries, and a chat closed leaves the list and the inbox", () => {
    const waiting = pendingCommand({ approvalId: "a-2" });
    const view = reduce(
      twoChats(),
      { type: "command-update", command: waiting, chatId: "chat-2" },
      { type: "chat-summary", summary: { ...other, activity: "waiting", waiting: 1 } },
    );
    expect(view.host?.chats.map((chat) => [chat.id, chat.activity])).toEqual([
      ["chat-1", "idle"],
      ["chat-2", "waiting"],
    ]);
    const closed = step(view, { type: "chat-closed", chatId: "chat-2" });
    expect(closed.host?.chats.map((chat) => chat.id)).toEqual(["chat-1"]);
    expect(closed.host?.inbox).toEqual([]);
    // The shown chat closed (in another tab): the page asks for a state again.
    expect(step(closed, { type: "chat-closed", chatId: "chat-1" }).stale).toBe(true);
  });

  it("takes another workspace's figures only when they are the shown chat's workspace's", () => {
    const view = twoChats();
    const figures = { budgetBytes: 1, quotaBytes: 2, usedBytes: 3, files: 4 };
    expect(step(view, { type: "saved-outputs", savedOutputs: figures, workspaceId: "w2" }).host).toBe(
      view.host,
    );
    expect(step(view, { type: "saved-outputs", savedOutputs: figures }).host?.limits?.savedOutputs).toEqual(
      figures,
    );
  });

  it("takes a settings change's limits for the shown chat only", () => {
    const view = twoChats();
    const before = view.host?.limits;
    if (!before) throw new Error("the fixture has limits");
    const limits = { ...before, backgroundCapSeconds: 60, sandbox: { ...before.sandbox, network: true } };
    expect(step(view, { type: "limits-changed", limits, chatId: "chat-2" }).host?.limits).toBe(before);
    const changed = step(view, { type: "limits-changed", limits });
    expect(changed.host?.limits).toBe(limits);
    expect(changed.host?.session).toBe(view.host?.session);
  });
});

describe("deskReducer: the conversation", () => {
  it("takes the context's figures for the shown chat", () => {
    const context = { usedTokens: 1_200, window: 200_000, costUsd: 0 };
    expect(reduce(known(), { type: "context-changed", context }).host?.session?.context).toEqual(context);
  });

  it("takes the conversation whole when it moved on Pi's tree (a rewind, or back), for the shown chat only", () => {
    const start = reduce(known(), {
      type: "transcript-add",
      item: { kind: "user", id: "#u1", entryId: "e1", text: "first" },
    });
    const moved = session({ transcript: [], rewound: { rewindId: "r1", at: 1 } });
    const view = step(start, { type: "session-replaced", session: moved });
    expect(view.host?.session).toEqual(moved);
    const elsewhere = step(start, {
      type: "session-replaced",
      session: moved,
      chatId: "other",
    } as LooseAction);
    expect(elsewhere.host?.session?.transcript).toHaveLength(1);
  });

  it("follows the messages waiting to reach the model, and drops the list once none waits", () => {
    const queued = [{ mode: "steer" as const, text: "also the tests" }];
    const view = reduce(known(), { type: "queue-changed", queued });
    expect(view.host?.session?.queued).toEqual(queued);
    const delivered = step(view, { type: "queue-changed", queued: [] });
    expect(delivered.host?.session).not.toHaveProperty("queued");
  });

  it("follows whether the agent is working", () => {
    const view = reduce(known(), { type: "session-status", running: true });
    expect(view.host?.session?.running).toBe(true);
    expect(step(view, { type: "session-status", running: true }).host).toBe(view.host);
    expect(step(view, { type: "session-status", running: false }).host?.session?.running).toBe(false);
  });

  it("adds entries at the end, in order", () => {
    const view = reduce(
      known(),
      { type: "transcript-add", item: { kind: "user", id: "u1", text: "hi" } },
      { type: "transcript-add", item: answer() },
      { type: "transcript-add", item: { kind: "command", id: "call-1" } },
    );
    expect(view.host?.session?.transcript.map((item) => item.id)).toEqual(["u1", "a1", "call-1"]);
  });

  it("replaces an entry added twice instead of showing it twice", () => {
    const view = reduce(
      known(),
      { type: "transcript-add", item: answer({ text: "a" }) },
      { type: "transcript-add", item: answer({ text: "ab" }) },
    );
    expect(view.host?.session?.transcript).toEqual([answer({ text: "ab" })]);
  });

  it("appends streamed text and thinking to the right message", () => {
    const view = reduce(
      known(),
      { type: "transcript-add", item: answer() },
      { type: "transcript-add", item: answer({ id: "a2" }) },
      { type: "assistant-delta", id: "a1", thinking: "Let me " },
      { type: "assistant-delta", id: "a1", thinking: "look.", text: "Hello" },
      { type: "assistant-delta", id: "a1", text: ", world" },
    );
    const [first, second] = view.host?.session?.transcript ?? [];
    expect(first).toMatchObject({ text: "Hello, world", thinking: "Let me look." });
    expect(second).toMatchObject({ text: "", thinking: "" });
  });

  it("ignores deltas for an unknown id, a non-assistant entry, or with nothing in them", () => {
    const view = reduce(known(), { type: "transcript-add", item: { kind: "user", id: "u1", text: "hi" } });
    expect(step(view, { type: "assistant-delta", id: "nope", text: "x" }).host).toBe(view.host);
    expect(step(view, { type: "assistant-delta", id: "u1", text: "x" }).host).toBe(view.host);
    const withAnswer = step(view, { type: "transcript-add", item: answer() });
    expect(step(withAnswer, { type: "assistant-delta", id: "a1" }).host).toBe(withAnswer.host);
  });

  it("replaces an updated entry in place", () => {
    const view = reduce(
      known(),
      { type: "transcript-add", item: answer({ text: "partial" }) },
      { type: "transcript-add", item: { kind: "user", id: "u2", text: "next" } },
      {
        type: "transcript-update",
        item: answer({ text: "final", streaming: false }),
      },
    );
    expect(view.host?.session?.transcript).toEqual([
      answer({ text: "final", streaming: false }),
      { kind: "user", id: "u2", text: "next" },
    ]);
  });

  it("ignores an update for an entry it never saw", () => {
    const view = known();
    expect(step(view, { type: "transcript-update", item: answer() }).host).toBe(view.host);
  });

  it("keeps the rest of the state when a session event applies", () => {
    const before = known(hostState({ rules: [] }));
    const after = step(before, { type: "session-status", running: true });
    expect(after.host?.workspace).toEqual(repo);
    expect(after.host?.models).toBe(before.host?.models);
  });
});

describe("deskReducer: commands", () => {
  it("adds a command on its first update and replaces it on the next", () => {
    const asked = step(known(), { type: "command-update", command: pendingCommand() });
    expect(asked.host?.session?.commands["call-1"]).toEqual(pendingCommand());
    const running = step(asked, { type: "command-update", command: runningCommand({ startedAt: 5 }) });
    expect(running.host?.session?.commands["call-1"]).toEqual(runningCommand({ startedAt: 5 }));
  });

  it("replaces the output tail (never appends) and the counts", () => {
    const view = reduce(
      known(),
      { type: "command-update", command: runningCommand() },
      { type: "command-output", id: "call-1", output: "one\n", totalBytes: 4, totalLines: 1 },
      { type: "command-output", id: "call-1", output: "two\n", totalBytes: 8, totalLines: 2 },
    );
    expect(view.host?.session?.commands["call-1"]).toMatchObject({
      output: "two\n",
      totalBytes: 8,
      totalLines: 2,
      phase: "running",
    });
  });

  it("ignores output for a command it does not know, or named like an Object property", () => {
    const view = known();
    const event = { type: "command-output", output: "x", totalBytes: 1, totalLines: 1 } as const;
    expect(step(view, { ...event, id: "call-9" }).host).toBe(view.host);
    expect(step(view, { ...event, id: "toString" }).host).toBe(view.host);
    expect(step(view, { ...event, id: "__proto__" }).host).toBe(view.host);
  });

  it("keeps several commands apart", () => {
    const view = reduce(
      known(),
      { type: "command-update", command: pendingCommand({ id: "c1", approvalId: "p1" }) },
      { type: "command-update", command: pendingCommand({ id: "c2", approvalId: "p2" }) },
      { type: "command-update", command: runningCommand({ id: "c1" }) },
    );
    expect(view.host?.session?.commands.c1?.phase).toBe("running");
    expect(view.host?.session?.commands.c2?.phase).toBe("pending");
  });

  it("takes new rules and models whole, even with no conversation open", () => {
    const rule = {
      id: "r1",
      effect: "allow",
      match: "prefix",
      pattern: "npm test",
      scope: "workspace",
      createdAt: 1,
    } as const;
    const models = { ...someModels, current: null, problem: "No model." };
    const view = reduce(
      known(hostState({ session: null })),
      { type: "rules-changed", rules: [rule] },
      { type: "models-changed", models },
    );
    expect(view.host?.rules).toEqual([rule]);
    expect(view.host?.models).toBe(models);
  });

  it("takes new saved-output figures into the limits, and ignores them with no workspace open", () => {
    const savedOutputs = { budgetBytes: 1, quotaBytes: 2, usedBytes: 3, files: 4 };
    const view = reduce(known(), { type: "saved-outputs", savedOutputs });
    expect(view.host?.limits?.savedOutputs).toEqual(savedOutputs);
    expect(view.host?.limits?.allowedBinaries).toEqual(hostState().limits?.allowedBinaries);
    const none = known(hostState({ limits: null }));
    expect(reduce(none, { type: "saved-outputs", savedOutputs }).host).toBe(none.host);
  });

  it("does not change the state it was given", () => {
    const state = hostState({ session: session({ transcript: [answer()] }) });
    const frozen = JSON.stringify(state);
    reduce(
      known(state),
      { type: "assistant-delta", id: "a1", text: "x" },
      { type: "command-update", command: pendingCommand() },
      { type: "session-status", running: true },
    );
    expect(JSON.stringify(state)).toBe(frozen);
  });
});
