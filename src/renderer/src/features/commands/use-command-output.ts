import { useEffect, useState } from "react";
import type { CommandView } from "../../../../shared/commands";
import type { DeskApi } from "../../../../shared/desk-api";
import { reasonOf } from "../../lib/format";

/*
 * A reopened chat's state leaves long ended outputs out (`CommandView.deferredOutput`): a card asks the
 * host for its own when it is drawn. The latest ones fetched are kept, so scrolling back past them draws
 * them at once; keyed by chat and command, so a card never shows another chat's output of the same id.
 */

/** Fetched outputs kept for cards drawn again: about 35 KB each in a long chat of 500-line outputs. */
const KEPT = 64;
const kept = new Map<string, string>();
const asked = new Map<string, Promise<string>>();

/** A card's output: here, on its way (how many lines, to keep its height), or not to be had. */
export type ShownOutput =
  | { kind: "ready"; output: string }
  | { kind: "loading"; lines: number }
  | { kind: "failed"; lines: number; reason: string };

const keyOf = (sessionId: string, commandId: string) => `${sessionId}\u0000${commandId}`;

function keptOutput(key: string): string | undefined {
  const output = kept.get(key);
  if (output === undefined) return undefined;
  // Most recently drawn last: the first one is the one to let go.
  kept.delete(key);
  kept.set(key, output);
  return output;
}

function keep(key: string, output: string): void {
  kept.set(key, output);
  for (const oldest of kept.keys()) {
    if (kept.size <= KEPT) break;
    kept.delete(oldest);
  }
}

function ask(api: DeskApi, sessionId: string, commandId: string): Promise<string> {
  const key = keyOf(sessionId, commandId);
  let pending = asked.get(key);
  if (!pending) {
    pending = api.commandOutput({ sessionId, commandId }).then(
      (reply) => {
        asked.delete(key);
        keep(key, reply.output);
        return reply.output;
      },
      (error: unknown) => {
        // Not kept: the next time the card is drawn asks again.
        asked.delete(key);
        throw error;
      },
    );
    asked.set(key, pending);
  }
  return pending;
}

/** The output a card shows: the view's own, or the one its state left out, fetched once the card is drawn. */
export function useCommandOutput(api: DeskApi, command: CommandView): ShownOutput {
  const deferred = command.deferredOutput;
  const sessionId = deferred?.sessionId;
  const lines = deferred?.lines ?? 0;
  const commandId = command.id;
  const key = sessionId === undefined ? null : keyOf(sessionId, commandId);
  const [fetched, setFetched] = useState<{ key: string; shown: ShownOutput } | null>(null);
  useEffect(() => {
    if (sessionId === undefined || key === null || kept.has(key)) return;
    let drawn = true;
    ask(api, sessionId, commandId).then(
      (output) => {
        if (drawn) setFetched({ key, shown: { kind: "ready", output } });
      },
      (error: unknown) => {
        if (drawn) setFetched({ key, shown: { kind: "failed", lines, reason: reasonOf(error) } });
      },
    );
    return () => {
      drawn = false;
    };
  }, [api, key, sessionId, commandId, lines]);
  if (key === null) return { kind: "ready", output: command.output };
  const known = keptOutput(key);
  if (known !== undefined) return { kind: "ready", output: known };
  if (fetched?.key === key) return fetched.shown;
  return { kind: "loading", lines };
}

/** Forgets every fetched output (for tests, which start each from nothing). */
export function forgetFetchedOutputs(): void {
  kept.clear();
  asked.clear();
}
