import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
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

// Pi keeps the last 20,000 tokens out of a compaction by default: a test's short chat would have nothing to
// compact. This file's agent dir (test/setup/pi-environment.ts makes one per file) keeps almost none.
beforeAll(() => {
  const agentDir = process.env.PI_CODING_AGENT_DIR as string;
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ compaction: { keepRecentTokens: 1 } }));
});

const LONG_ANSWER = `${"The build has three stages. ".repeat(200)}Done.`;

describe("the host: the context window and compaction", () => {
  it("tells the page how full the context is after each answer, and compacts into a summary entry", async () => {
    const { host, events } = await startHost([
      [{ type: "text", text: LONG_ANSWER }],
      [{ type: "text", text: "Second answer." }],
      [{ type: "text", text: "Summary: the build has three stages." }],
      // With almost nothing kept, the last turn is split too: its start is summarised by a request of its own.
      [{ type: "text", text: "The person asked about the tests." }],
      [{ type: "text", text: "After the summary." }],
    ]);
    const chat = calls(host);
    await chat.prompt({ text: "explain the build" });
    await assistantSaid(host, "Done.");
    await settled(host);
    const context = host.state().session?.context;
    // Pi's count: the answer alone is about 1,400 tokens.
    expect(context?.usedTokens).toBeGreaterThan(1_000);
    expect(context?.window).toBeGreaterThan(context?.usedTokens ?? 0);
    await chat.prompt({ text: "and the tests?" });
    await assistantSaid(host, "Second answer.");
    await settled(host);
    const told = events.filter(
      (event): event is Extract<HostEvent, { type: "context-changed" }> => event.type === "context-changed",
    );
    expect(told.at(-1)?.context).toEqual(host.state().session?.context);

    await chat.compact({ instructions: "Keep the stages." });
    const entry = host.state().session?.transcript.find((item) => item.kind === "compaction");
    expect(entry).toMatchObject({
      kind: "compaction",
      summary: expect.stringContaining("three stages"),
      reason: "manual",
    });
    expect(entry?.kind === "compaction" && entry.tokensBefore).toBeGreaterThan(1_000);

    // The next request is given the summary instead of the long answer, and is that much shorter.
    await chat.prompt({ text: "and now?" });
    await assistantSaid(host, "After the summary.");
    await settled(host);
    const given = JSON.stringify(host.agentOf()?.messages);
    expect(given).not.toContain("The build has three stages. The build");
    expect(given).toContain("Summary: the build has three stages.");
    // The long answer was about 1,400 tokens of it.
    expect(host.state().session?.context?.usedTokens).toBeLessThan((context?.usedTokens ?? 0) - 1_000);
  });

  it("refuses to compact while the agent works, saying what to do", async () => {
    const { host } = await startHost([[runCommand("c1", "echo one")]]);
    await calls(host).prompt({ text: "go" });
    await pendingApproval(host, "c1");
    await expect(calls(host).compact({})).rejects.toThrow(/wait for it to finish, or press Stop/);
    await calls(host).stop();
    await waitFor(() => host.state().session?.running === false);
  });
});
