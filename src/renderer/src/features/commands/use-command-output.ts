import { useEffect, useState } from "react";
import type { CommandView } from "../../../../shared/commands";
import type { SessionState } from "../../../../shared/host-state";
import { countLines } from "../../../../shared/output-tail";
import type { ChatApi } from "../../client/chat-api";
import { reasonOf } from "../../lib/format";

/*
 * A reopened chat's state leaves long ended outputs out (`CommandView.deferredOutput`): a card asks the
 * host for its own when it is drawn. The latest ones fetched are kept, so scrolling back past them draws
 * them at once; keyed by chat and command, so a card never shows another chat's output of the same id.
 * A drawn card that ended on the page keeps its output when a new state leaves it out (`keepOutputsHeld`).
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

function ask(api: ChatApi, sessionId: string, commandId: string): Promise<string> {
  const key = keyOf(sessionId, commandId);
  let pending = asked.get(key);
  if (!pending) {
    pending = api.commandOutput({ commandId }).then(
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
export function useCommandOutput(api: ChatApi, command: CommandView): ShownOutput {
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

/**
 * When a new state (a snapshot: after a Settings change, a reconnect) leaves out the outputs of drawn
 * cards (`commandIds`) that the page already holds (`before`, the state last drawn), keeps those outputs
 * as if fetched, so the cards neither flash their placeholder nor ask the host for what the page saw.
 * Only where the held copy is the host's own: same chat; the command had ended when the page last had it
 * (an ended view reaches the page only by its `command-update`, carrying the output as the host keeps it);
 * nothing of it was cut (a trimmed or saved output is fetched as before); as many lines as the state says.
 */
export function keepOutputsHeld(
  before: SessionState | null,
  now: SessionState,
  commandIds: readonly string[],
): void {
  if (!before || before.id !== now.id || before.commands === now.commands) return;
  for (const id of commandIds) {
    const next = Object.hasOwn(now.commands, id) ? now.commands[id] : undefined;
    const deferred = next?.deferredOutput;
    if (!deferred || deferred.sessionId !== now.id) continue;
    const key = keyOf(deferred.sessionId, id);
    if (kept.has(key)) continue;
    const held = Object.hasOwn(before.commands, id) ? before.commands[id] : undefined;
    if (held && heldWhole(held) && countLines(held.output) === deferred.lines) keep(key, held.output);
  }
}

/** Whether a view the page holds has the command's whole ended output, as the host would answer it. */
function heldWhole(view: CommandView): boolean {
  const live = view.phase === "pending" || view.phase === "running" || view.phase === "background";
  const details = view.details;
  return (
    !live &&
    view.deferredOutput === undefined &&
    details !== undefined &&
    !details.truncated &&
    details.fullOutputPath === undefined
  );
}

/** Forgets every fetched output (for tests, which start each from nothing). */
export function forgetFetchedOutputs(): void {
  kept.clear();
  asked.clear();
}
