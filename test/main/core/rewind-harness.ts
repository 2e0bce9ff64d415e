import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { DeskHost, type DeskHostOptions } from "../../../src/main/core/desk-host";
import type { RewindFile } from "../../../src/shared/rewind";
import type { NoticeItem } from "../../../src/shared/transcript";
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

/** Runs `step` as if the host died at `phase` of a rewind, a switch or a Back (it throws "Simulated crash"). */
export async function crashAt(phase: string, step: () => Promise<unknown>): Promise<void> {
  process.env.PI_DESK_REWIND_CRASH_AT = phase;
  try {
    await expect(step()).rejects.toThrow(/Simulated crash/);
  } finally {
    delete process.env.PI_DESK_REWIND_CRASH_AT;
  }
}

/** A new host on the same data and workspace (the next start), with the cut-short chat opened again. */
export async function nextStart(root: string, workspace: string, sessionFile: string): Promise<DeskHost> {
  const host = await DeskHost.create({
    shell: "browser",
    version: "test",
    workspace: { path: workspace, name: "repo" },
    dataRoot: join(root, "data"),
  });
  await calls(host).openSession({ path: sessionFile });
  return host;
}

/** The notices of the conversation shown. */
export function notices(host: DeskHost): NoticeItem[] {
  return (host.state().session?.transcript ?? []).filter(
    (item): item is NoticeItem => item.kind === "notice",
  );
}
