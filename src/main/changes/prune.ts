import type { RecordStore } from "./records";
import type { ShadowRepo } from "./shadow-repo";

/** What a prune dropped and the space before and after. */
export interface PruneResult {
  /** Command ids whose records were dropped, oldest first. */
  dropped: string[];
  /** Bytes the shadow repository took before. */
  bytesBefore: number;
  /** Bytes it takes now (at least the workspace's current files, which are always kept). */
  bytesAfter: number;
}

/**
 * Drops the oldest records until the shadow repository fits in `budgetBytes`. Objects are kept alive by
 * refs written here, one per kept snapshot and one per tree of `keep` (the last scan's: the engine's
 * in-memory state names its blobs as stored, and the next change set reads them); `git gc
 * --prune=now` then removes everything else and packs the rest. Each round drops the oldest quarter of
 * what is left (at least one record) and collects once, so a large overshoot costs a few rounds rather
 * than one gc per record; it may drop a little more than the least that would fit.
 */
export async function pruneRecords(
  repo: ShadowRepo,
  store: RecordStore,
  budgetBytes: number,
  keep: readonly string[],
): Promise<PruneResult> {
  const bytesBefore = await repo.sizeBytes();
  const dropped: string[] = [];
  let bytes = bytesBefore;
  while (bytes > budgetBytes) {
    const records = store.list();
    if (records.length === 0) break;
    for (const record of records.slice(0, Math.max(1, Math.floor(records.length / 4)))) {
      await store.remove(record.commandId);
      dropped.push(record.commandId);
    }
    await collect(repo, store, keep);
    bytes = await repo.sizeBytes();
  }
  return { dropped, bytesBefore, bytesAfter: bytes };
}

/** Points `refs/pi-desk/*` at exactly the kept trees, then lets gc drop what nothing reaches. */
async function collect(repo: ShadowRepo, store: RecordStore, keep: readonly string[]): Promise<void> {
  const existing = (await repo.run(["for-each-ref", "--format=%(refname)", "refs/pi-desk/"]))
    .toString("utf8")
    .split("\n")
    .filter(Boolean);
  const trees = new Set([
    ...keep,
    ...store.list().flatMap((record) => [record.before.tree, record.after?.tree ?? []].flat()),
  ]);
  const commands = [
    ...existing.filter((ref) => !trees.has(ref.slice("refs/pi-desk/".length))).map((ref) => `delete ${ref}`),
    ...[...trees].map((tree) => `update refs/pi-desk/${tree} ${tree}`),
  ];
  if (commands.length > 0) await repo.run(["update-ref", "--stdin"], { input: `${commands.join("\n")}\n` });
  await repo.run(["gc", "--prune=now", "--quiet"], { timeoutMs: 10 * 60_000 });
}
