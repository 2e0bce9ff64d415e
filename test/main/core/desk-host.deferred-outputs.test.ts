import { describe, expect, it } from "vitest";
import { DEFER_OUTPUT_CHARS } from "../../../src/main/agent/deferred-outputs";
import type { CommandView } from "../../../src/shared/commands";
import { countLines } from "../../../src/shared/output-tail";
import { calls, commandOf, pendingApproval, runCommand, settled, startHost, waitFor } from "./host-harness";

/** `seq`'s lines from `from` to `to`, as it prints them. */
const seqText = (from: number, to: number) =>
  `${Array.from({ length: to - from + 1 }, (_, k) => String(from + k)).join("\n")}\n`;

describe("the session host: long ended outputs are fetched by their cards", () => {
  it("leaves a long ended output out of the state, says its size, and gives it whole to the card that asks", async () => {
    const { host, events } = await startHost([
      [runCommand("long", "seq 1 3000"), runCommand("short", "seq 7 9")],
      [{ type: "text", text: "Done." }],
    ]);
    await calls(host).prompt({ text: "go" });
    for (const id of ["long", "short"]) {
      await calls(host).decide({
        approvalId: await pendingApproval(host, id),
        decision: { kind: "approve" },
      });
    }
    await settled(host);
    await waitFor(() => commandOf(host, "long")?.phase === "succeeded" && commandOf(host, "short")?.details);

    // The card shows the last 500 lines of what the model saw (the whole output is in the saved file).
    const tail = commandOf(host, "long")?.output as string;
    expect(countLines(tail)).toBe(500);
    expect(tail).toContain("2999\n3000\n");

    // What a page starts from: the long output is left out, with what its card needs to keep its height.
    const state = await calls(host).getState();
    const sessionId = state.session?.id as string;
    const long = state.session?.commands.long as CommandView;
    expect(long.output).toBe("");
    expect(long.deferredOutput).toEqual({ sessionId, lines: 500 });
    expect(long).toMatchObject({ phase: "succeeded", details: { totalLines: 3000 } });
    // A short one stays in: fetching it would cost more than it does.
    expect(state.session?.commands.short).toMatchObject({ output: "7\n8\n9" });
    expect(state.session?.commands.short?.deferredOutput).toBeUndefined();
    expect(tail.length).toBeGreaterThan(DEFER_OUTPUT_CHARS);

    // The card asks: it gets this command's output, exactly as the live card had it.
    const reply = await calls(host).commandOutput({ commandId: "long" });
    const held = commandOf(host, "long") as CommandView;
    expect(reply).toEqual({ output: tail, totalBytes: held.totalBytes, totalLines: held.totalLines });
    const live = events.findLast((e) => e.type === "command-update" && e.command.id === "long");
    expect(live?.type === "command-update" && live.command.output).toBe(reply.output);
    expect((await calls(host).commandOutput({ commandId: "short" })).output).toBe("7\n8\n9");

    // Another chat's command, or one this chat does not have: refused, saying what to do.
    await expect(calls(host).commandOutput({ chatId: "another-chat", commandId: "long" })).rejects.toThrow(
      /No chat is open under id "another-chat": it was closed/,
    );
    await expect(calls(host).commandOutput({ commandId: "nope" })).rejects.toThrow(
      /no command "nope": reload the page/,
    );

    // A reopened chat's snapshot leaves it out the same way, under the reopened session's id.
    const file = state.session?.file as string;
    await calls(host).newSession();
    await calls(host).openSession({ path: file });
    const reopened = host.state().session;
    expect(reopened?.id).toBe(sessionId);
    expect(reopened?.commands.long).toMatchObject({ output: "", deferredOutput: { sessionId, lines: 500 } });
    expect((await calls(host).commandOutput({ commandId: "long" })).output).toBe(tail);
  });

  it("keeps a running command's output in the state, and gives its output so far to a card that asks", async () => {
    const { host } = await startHost([
      [runCommand("run", "seq 1 2000; sleep 30", 60)],
      [{ type: "text", text: "Done." }],
    ]);
    await calls(host).prompt({ text: "go" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "run"),
      decision: { kind: "approve" },
    });
    await waitFor(
      () => commandOf(host, "run")?.phase === "running" && commandOf(host, "run")?.totalLines === 2000,
    );

    const state = await calls(host).getState();
    const running = state.session?.commands.run as CommandView;
    // It changes as it runs: it is in the state, however long.
    expect(running.output.length).toBeGreaterThan(DEFER_OUTPUT_CHARS);
    expect(running.output).toContain("1\n2\n3\n");
    expect(running.output).toContain("1999\n2000");
    expect(running.deferredOutput).toBeUndefined();
    const reply = await calls(host).commandOutput({
      commandId: "run",
    });
    expect(reply).toEqual({ output: running.output, totalBytes: seqText(1, 2000).length, totalLines: 2000 });
    await calls(host).cancelCommand({ commandId: "run" });
    await waitFor(() => commandOf(host, "run")?.phase === "cancelled");
  });
});
