import { describe, expect, it } from "vitest";
import type { HostEvent } from "../../../src/shared/host-events";
import {
  assistantSaid,
  calls,
  pendingApproval,
  runCommand,
  settled,
  startHost,
  waitFor,
} from "./host-harness";

/** What the model was given, in order: each message's role and its text or tool call. */
function conversation(host: Awaited<ReturnType<typeof startHost>>["host"]): string[] {
  return (host.agentOf()?.messages ?? []).flatMap((message) => {
    const m = message as { role: string; content?: unknown };
    if (m.role === "system") return [];
    if (m.role === "toolResult") return ["toolResult"];
    const blocks =
      typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as object[]);
    return (blocks as { type: string; text?: string; name?: string }[])
      .filter((block) => block.type === "text" || block.type === "toolCall")
      .map((block) => `${m.role}: ${block.type === "text" ? block.text : `call ${block.name}`}`);
  });
}

const queuedIn = (events: HostEvent[]) =>
  events.flatMap((event) =>
    event.type === "queue-changed" ? [event.queued.map((q) => `${q.mode} ${q.text}`)] : [],
  );

describe("the host: messages sent while the agent works", () => {
  it("steers: the message reaches the model after the command under way, before its next turn", async () => {
    const { host, events } = await startHost([
      [runCommand("c1", "echo one")],
      [{ type: "text", text: "Steered." }],
    ]);
    const chat = calls(host);
    await chat.prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    await chat.prompt({ text: "also look at the tests" });
    expect(host.state().session?.queued).toEqual([{ mode: "steer", text: "also look at the tests" }]);
    await chat.decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "Steered.");
    await settled(host);
    expect(conversation(host)).toEqual([
      "user: go",
      "assistant: call run_command",
      "toolResult",
      "user: also look at the tests",
      "assistant: Steered.",
    ]);
    // The page heard it wait, then go.
    expect(queuedIn(events)).toEqual([["steer also look at the tests"], []]);
    expect(host.state().session?.queued).toBeUndefined();
  });

  it("follows up: the message waits for the agent to finish, then starts the next turn", async () => {
    const { host } = await startHost([
      [runCommand("c1", "echo one")],
      [{ type: "text", text: "Done." }],
      [{ type: "text", text: "Followed up." }],
    ]);
    const chat = calls(host);
    await chat.prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    await chat.prompt({ text: "then summarise", mode: "follow-up" });
    await chat.decide({ approvalId, decision: { kind: "approve" } });
    await assistantSaid(host, "Followed up.");
    await settled(host);
    expect(conversation(host)).toEqual([
      "user: go",
      "assistant: call run_command",
      "toolResult",
      "assistant: Done.",
      "user: then summarise",
      "assistant: Followed up.",
    ]);
  });

  it("takes back one waiting message and keeps the others in order; Stop gives back what was not sent", async () => {
    const { host } = await startHost([[runCommand("c1", "echo one")], [{ type: "text", text: "ok" }]]);
    const chat = calls(host);
    await chat.prompt({ text: "go" });
    await pendingApproval(host, "c1");
    await chat.prompt({ text: "first" });
    await chat.prompt({ text: "second" });
    await chat.prompt({ text: "later", mode: "follow-up" });
    await chat.removeQueued({ mode: "steer", index: 0 });
    expect(host.state().session?.queued).toEqual([
      { mode: "steer", text: "second" },
      { mode: "follow-up", text: "later" },
    ]);
    await expect(chat.removeQueued({ mode: "steer", index: 5 })).rejects.toThrow(/no longer waiting/);
    expect(host.state().session?.queued).toHaveLength(2);

    const outcome = await chat.stop();
    expect(outcome.unsent).toEqual([
      { mode: "steer", text: "second" },
      { mode: "follow-up", text: "later" },
    ]);
    await waitFor(() => host.state().session?.running === false);
    expect(host.state().session?.queued).toBeUndefined();
    expect(conversation(host).filter((line) => line.startsWith("user"))).toEqual(["user: go"]);
  });
});
