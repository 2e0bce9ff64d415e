import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DeskHost, DeskHostOptions } from "../../../src/main/core/desk-host";
import type { RewindFile } from "../../../src/shared/rewind";
import { assistantSaid, calls, pendingApproval, startHost, type Turn, waitFor } from "./host-harness";

/** Pi's `edit` tool call. */
export const edit = (id: string, path: string, oldText: string, newText: string) => ({
  type: "toolCall" as const,
  id,
  name: "edit",
  arguments: { path, edits: [{ oldText, newText }] },
});

/** A host on a workspace seeded with `files`, its first snapshot taken (so every command is recorded), no sandbox. */
export async function rewindHost(
  turns: Turn[] | Record<string, Turn[]>,
  files: Record<string, string | Buffer>,
  options: Partial<DeskHostOptions> = {},
) {
  const started = await startHost(turns, options);
  for (const [path, content] of Object.entries(files)) writeFileSync(join(started.workspace, path), content);
  if (options.changes !== false) {
    await waitFor(() => started.host.state().limits?.changes.state.type === "on");
  }
  await calls(started.host).setSandbox({ enabled: false, network: false });
  return started;
}

/** Sends a message, approves each command or edit in turn (by its tool call id), and waits for the last words. */
export async function turn(host: DeskHost, text: string, ids: string[], said: string): Promise<void> {
  await calls(host).prompt({ text });
  for (const id of ids) {
    const approvalId = await waitFor(
      () =>
        host.state().session?.edits[id]?.approvalId ??
        (host.command(id) ? pendingApproval(host, id) : undefined),
    );
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
  }
  await assistantSaid(host, said);
}

/** The Pi entry id of the person's message with this text. */
export function entryOf(host: DeskHost, text: string): string {
  const item = host
    .state()
    .session?.transcript.find((entry) => entry.kind === "user" && entry.text === text && entry.entryId);
  if (item?.kind !== "user" || !item.entryId) throw new Error(`no written message "${text}"`);
  return item.entryId;
}

/** The outcome of each file, by path. */
export function outcomesOf(files: readonly RewindFile[]): Record<string, string> {
  return Object.fromEntries(files.map((file) => [file.path, file.outcome]));
}

/** The person's messages of the conversation shown. */
export function userTexts(host: DeskHost): string[] {
  return (host.state().session?.transcript ?? []).flatMap((item) =>
    item.kind === "user" ? [item.text] : [],
  );
}
