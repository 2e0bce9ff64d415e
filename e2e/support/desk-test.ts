import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base } from "@playwright/test";
import {
  type DeskServer,
  type DeskServerOptions,
  type Script,
  startDeskServer,
  startScriptedDesk,
  stopDeskServer,
} from "../../harness/desk-server";

/** Playwright's `test` with a fresh workspace and browser host per test, and scripted hosts on demand. */
export const test = base.extend<{
  desk: DeskServer;
  scriptedDesk: (script: Script, options?: DeskServerOptions) => Promise<DeskServer>;
}>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  desk: async ({}, use) => {
    const workspace = mkdtempSync(join(tmpdir(), "pi-desk-e2e-"));
    const { server, child } = await startDeskServer(workspace);
    await use(server);
    await stopDeskServer(child);
    rmSync(workspace, { recursive: true, force: true });
  },
  // biome-ignore lint/correctness/noEmptyPattern: as above.
  scriptedDesk: async ({}, use) => {
    const started: (() => Promise<void>)[] = [];
    await use(async (script, options) => {
      const { server, cleanup } = await startScriptedDesk(script, options);
      started.push(cleanup);
      return server;
    });
    for (const cleanup of started) await cleanup();
  },
});

export { expect } from "@playwright/test";
