import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DeskHost, type DeskHostOptions } from "../../../src/main/core/desk-host";
import type { ChangesState } from "../../../src/shared/changes";
import type { HostEvent } from "../../../src/shared/host-events";
import { waitFor } from "./host-harness";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A host opened on a workspace of `files` files (seeded before it opens), with its events. */
async function hostOn(files: number, options: Partial<DeskHostOptions> = {}) {
  const root = mkdtempSync(join(tmpdir(), "pi-desk-scale-"));
  const workspace = join(root, "repo");
  for (let i = 0; i < files; i++) {
    if (i % 100 === 0) mkdirSync(join(workspace, `d${i / 100}`), { recursive: true });
    writeFileSync(join(workspace, `d${Math.floor(i / 100)}`, `f${i}.txt`), `${i}\n`.repeat(400));
  }
  const events: HostEvent[] = [];
  const host = await DeskHost.create({
    shell: "browser",
    version: "test",
    workspace: { path: workspace, name: "repo" },
    dataRoot: join(root, "data"),
    ...options,
  });
  host.subscribe((event) => events.push(event));
  cleanups.push(async () => {
    await host.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  return { host, events };
}

function changesEvents(events: HostEvent[]): ChangesState[] {
  return events.flatMap((event) => (event.type === "changes-state" ? [event.changes] : []));
}

describe("changes on a big workspace, through the host", () => {
  it("sends the first snapshot's progress as changes-state events, then on", async () => {
    const { host, events } = await hostOn(4000);
    await waitFor(() => host.state().limits?.changes.state.type === "on", 60_000);
    const told = changesEvents(events);
    const progress = told.filter((state) => state.state.type === "preparing").map((state) => state.progress);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual({ scanned: 4000, total: 4000 });
    expect(told.at(-1)?.state.type).toBe("on");
    expect(told.at(-1)?.progress).toBeUndefined();
  });

  it("takes the file limit from its options, and says so past it", async () => {
    const { host } = await hostOn(12, { changes: { maxFiles: 10 } });
    const state = await waitFor(() => {
      const now = host.state().limits?.changes.state;
      return now?.type === "off" ? now : undefined;
    }, 30_000);
    expect(state.reason).toMatch(/more than 10 files not ignored \(12 found\).*--changes-max-files/);
  });
});
