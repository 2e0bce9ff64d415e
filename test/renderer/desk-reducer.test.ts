import { describe, expect, it } from "vitest";
import {
  type DeskAction,
  type DeskView,
  deskReducer,
  initialView,
} from "../../src/renderer/src/state/desk-reducer";
import type { HostEvent } from "../../src/shared/host-events";
import type { HostState } from "../../src/shared/host-state";
import type { AssistantItem } from "../../src/shared/transcript";
import { hostState, pendingCommand, repo, runningCommand, session, someModels } from "./fixtures";

const reduce = (view: DeskView, ...actions: DeskAction[]) => actions.reduce(deskReducer, view);
const known = (state: HostState = hostState()) => deskReducer(initialView, { type: "snapshot", state });
const answer = (overrides: Partial<AssistantItem> = {}): AssistantItem => ({
  kind: "assistant",
  id: "a1",
  text: "",
  thinking: "",
  streaming: true,
  ...overrides,
});

describe("deskReducer: snapshots and the connection", () => {
  it("starts connecting with nothing known", () => {
    expect(initialView).toEqual({ host: null, connection: { kind: "connecting" } });
  });

  it("takes a snapshot whole, replacing everything it had", () => {
    const before = reduce(
      known(),
      { type: "transcript-add", item: { kind: "user", id: "u1", text: "hi" } },
      { type: "command-update", command: pendingCommand() },
      { type: "rules-changed", rules: [] },
    );
    const fresh = hostState({ workspace: null, session: null, limits: null });
    const after = deskReducer(before, { type: "snapshot", state: fresh });
    expect(after.host).toBe(fresh);
  });

  it("tracks the connection without losing the host state", () => {
    const view = known();
    const lost = deskReducer(view, { type: "connection", status: { kind: "disconnected", reason: "gone" } });
    expect(lost.connection).toEqual({ kind: "disconnected", reason: "gone" });
    expect(lost.host).toBe(view.host);
  });

  it.each<HostEvent>([
    { type: "session-status", running: true },
    { type: "transcript-add", item: { kind: "user", id: "u1", text: "hi" } },
    { type: "transcript-update", item: { kind: "user", id: "u1", text: "hi" } },
    { type: "assistant-delta", id: "a1", text: "x" },
    { type: "command-update", command: pendingCommand() },
    { type: "command-output", id: "call-1", output: "x", totalBytes: 1, totalLines: 1 },
    { type: "rules-changed", rules: [] },
    { type: "models-changed", models: someModels },
  ])("ignores $type before the first snapshot (the snapshot carries it)", (event) => {
    expect(deskReducer(initialView, event)).toBe(initialView);
  });

  it("ignores session events while no conversation is open", () => {
    const view = known(hostState({ session: null }));
    for (const event of [
      { type: "session-status", running: true },
      { type: "transcript-add", item: { kind: "user", id: "u1", text: "hi" } },
      { type: "command-update", command: pendingCommand() },
    ] satisfies HostEvent[]) {
      expect(deskReducer(view, event)).toBe(view);
    }
  });

  it("ignores an event type it does not know, from a newer host", () => {
    const view = known();
    expect(deskReducer(view, { type: "from-the-future" } as unknown as HostEvent)).toBe(view);
  });
});

describe("deskReducer: the conversation", () => {
  it("follows whether the agent is working", () => {
    const view = reduce(known(), { type: "session-status", running: true });
    expect(view.host?.session?.running).toBe(true);
    expect(deskReducer(view, { type: "session-status", running: true })).toBe(view);
    expect(deskReducer(view, { type: "session-status", running: false }).host?.session?.running).toBe(false);
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
    expect(deskReducer(view, { type: "assistant-delta", id: "nope", text: "x" })).toBe(view);
    expect(deskReducer(view, { type: "assistant-delta", id: "u1", text: "x" })).toBe(view);
    const withAnswer = deskReducer(view, { type: "transcript-add", item: answer() });
    expect(deskReducer(withAnswer, { type: "assistant-delta", id: "a1" })).toBe(withAnswer);
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
    expect(deskReducer(view, { type: "transcript-update", item: answer() })).toBe(view);
  });

  it("keeps the rest of the state when a session event applies", () => {
    const before = known(hostState({ rules: [] }));
    const after = deskReducer(before, { type: "session-status", running: true });
    expect(after.host?.workspace).toEqual(repo);
    expect(after.host?.models).toBe(before.host?.models);
  });
});

describe("deskReducer: commands", () => {
  it("adds a command on its first update and replaces it on the next", () => {
    const asked = deskReducer(known(), { type: "command-update", command: pendingCommand() });
    expect(asked.host?.session?.commands["call-1"]).toEqual(pendingCommand());
    const running = deskReducer(asked, { type: "command-update", command: runningCommand({ startedAt: 5 }) });
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
    expect(deskReducer(view, { ...event, id: "call-9" })).toBe(view);
    expect(deskReducer(view, { ...event, id: "toString" })).toBe(view);
    expect(deskReducer(view, { ...event, id: "__proto__" })).toBe(view);
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
    expect(reduce(none, { type: "saved-outputs", savedOutputs })).toBe(none);
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
