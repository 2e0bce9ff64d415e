import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  errorReply,
  type ModelReply,
  type OpenAiServer,
  startOpenAiServer,
  writeLocalProvider,
} from "../../../harness/openai-server";
import { DeskHost } from "../../../src/main/core/desk-host";
import type { TranscriptItem, TurnErrorKind } from "../../../src/shared/transcript";
import { calls, waitFor } from "./host-harness";

/*
 * Turns that fail one after another in one chat, through Pi's real provider path (retries included, with
 * short waits) against a loopback model server: whatever failed before, each failed turn shows exactly one
 * entry of its own kind, with its own status, attempts and wait, and an answered turn none (issue 39).
 */

/** How the server answers every request of one turn. */
type TurnOutcome = "401" | "500" | "429 with retry-after" | "429" | "refused" | "answered";

/** Pi retries 5xx, 429 and connection failures three times (settings below), not 401. */
const MAX_RETRIES = 3;
/** The wait the rate limit with `retry-after` asks for. */
const RETRY_AFTER_S = 7;

/** What the failed turn's one entry must say. */
const EXPECTED: Record<Exclude<TurnOutcome, "answered">, ExpectedEntry> = {
  "401": { errorKind: "auth", status: 401, attempts: 1, message: "Incorrect API key provided." },
  "500": {
    errorKind: "provider",
    status: 500,
    attempts: 1 + MAX_RETRIES,
    message: "The server had an error.",
  },
  "429 with retry-after": {
    errorKind: "rate-limit",
    status: 429,
    attempts: 1 + MAX_RETRIES,
    message: "Rate limit reached for requests.",
    waits: true,
  },
  "429": { errorKind: "rate-limit", status: 429, attempts: 1 + MAX_RETRIES, message: "Slow down." },
  refused: { errorKind: "network", attempts: 1 + MAX_RETRIES, raw: /ECONNREFUSED/ },
};

interface ExpectedEntry {
  errorKind: TurnErrorKind;
  status?: number;
  attempts: number;
  message?: string;
  /** The provider asked for a wait, which the entry says. */
  waits?: boolean;
  /** What Pi's own error text says. */
  raw?: RegExp;
}

function replyFor(outcome: TurnOutcome): ModelReply {
  switch (outcome) {
    case "401":
      return errorReply(401, "Incorrect API key provided.");
    case "500":
      return errorReply(500, "The server had an error.");
    case "429 with retry-after":
      return errorReply(429, "Rate limit reached for requests.", { "retry-after": String(RETRY_AFTER_S) });
    case "429":
      return errorReply(429, "Slow down.");
    default:
      return { text: "Answered." };
  }
}

let server: OpenAiServer | undefined;
let host: DeskHost | undefined;
let root = "";

afterEach(async () => {
  await host?.dispose();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

async function startHost(first: () => ModelReply): Promise<DeskHost> {
  server = await startOpenAiServer(first);
  root = mkdtempSync(join(tmpdir(), "pi-desk-in-a-row-"));
  mkdirSync(join(root, "repo"));
  const agentDir = process.env.PI_CODING_AGENT_DIR as string;
  writeLocalProvider(agentDir, server.baseUrl, {
    settings: { retry: { enabled: true, maxRetries: MAX_RETRIES, baseDelayMs: 10 } },
  });
  host = await DeskHost.create({
    shell: "browser",
    version: "test",
    workspace: { path: join(root, "repo"), name: "repo" },
    dataRoot: join(root, "data"),
  });
  return host;
}

/** The transcript cut into turns: each from a person's message up to the next. */
function turnsOf(transcript: readonly TranscriptItem[]): TranscriptItem[][] {
  const turns: TranscriptItem[][] = [];
  for (const item of transcript) {
    if (item.kind === "user") turns.push([item]);
    else turns.at(-1)?.push(item);
  }
  return turns;
}

const ORDERS: TurnOutcome[][] = [
  // The order the issue met: the third turn showed nothing.
  ["401", "500", "429 with retry-after"],
  ["429", "answered", "refused", "401", "429 with retry-after"],
  ["refused", "429 with retry-after", "429", "answered", "500", "401"],
  ["answered", "429 with retry-after", "refused", "500", "answered", "401", "401"],
];

describe("turns that fail in a row in one chat", () => {
  for (const order of ORDERS) {
    it(`each shows one entry of its own: ${order.join(", ")}`, async () => {
      const desk = await startHost(() => replyFor(order[0] as TurnOutcome));
      let settled = 0;
      desk.subscribe((event) => {
        if (event.type === "session-status" && !event.running) settled += 1;
      });
      const endedAt: number[] = [];
      for (const [index, outcome] of order.entries()) {
        server?.setReplies(() => replyFor(outcome));
        await server?.refuseConnections(outcome === "refused");
        const before = settled;
        await calls(desk).prompt({ text: `Turn ${index + 1}` });
        await waitFor(() => settled > before);
        endedAt.push(Date.now());
      }

      const turns = turnsOf(desk.state().session?.transcript ?? []);
      expect(turns.map((turn) => turn[0])).toEqual(
        order.map((_, index) => expect.objectContaining({ kind: "user", text: `Turn ${index + 1}` })),
      );
      for (const [index, outcome] of order.entries()) {
        const turn = turns[index] ?? [];
        const entries = turn.filter((item) => item.kind === "turn-error");
        const where = `turn ${index + 1} (${outcome})`;
        if (outcome === "answered") {
          expect(entries, where).toEqual([]);
          expect(turn.at(-1), where).toMatchObject({ kind: "assistant", text: "Answered." });
          continue;
        }
        const expected = EXPECTED[outcome];
        expect(entries, where).toHaveLength(1);
        const [entry] = entries;
        expect(entry, where).toMatchObject({
          errorKind: expected.errorKind,
          attempts: expected.attempts,
          state: "failed",
          ...(expected.message ? { message: expected.message } : {}),
          ...(expected.raw ? { raw: expect.stringMatching(expected.raw) } : {}),
        });
        if (expected.status === undefined) expect(entry, where).not.toHaveProperty("status");
        else expect(entry?.kind === "turn-error" && entry.status, where).toBe(expected.status);
        const retryAfter = entry?.kind === "turn-error" ? entry.retryAfter : undefined;
        if (expected.waits) {
          // Counted from when the turn's last failure was seen, which is within the turn.
          const ended = endedAt[index] as number;
          expect(retryAfter, where).toBeGreaterThan(ended + RETRY_AFTER_S * 1000 - 5_000);
          expect(retryAfter, where).toBeLessThanOrEqual(ended + RETRY_AFTER_S * 1000);
        } else {
          expect(retryAfter, where).toBeUndefined();
        }
      }
    });
  }
});
