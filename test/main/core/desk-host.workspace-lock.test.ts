import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import { workspaceDataDir } from "../../../src/main/storage/data-folder";
import { workspaceLockFile } from "../../../src/main/storage/workspace-lock";
import { calls, startHost } from "./host-harness";

// One host per workspace: the lock is taken on open and given up on a switch or a quit. (Two real host
// processes on one folder: e2e/host-twice.spec.ts; the lock itself: test/main/storage/workspace-lock.test.ts.)
describe("a host and its workspace's owner lock", () => {
  it("refuses a folder another live host holds, naming it, and opens nothing", async () => {
    const { host, workspace, root } = await startHost([]);
    host.setReach("browser host on http://127.0.0.1:8765");
    const message =
      `This folder is already open in Pi Desk (pid ${process.pid}, browser host on http://127.0.0.1:8765). ` +
      "Close it first, or open another folder.";
    const dataRoot = join(root, "data");
    await expect(
      DeskHost.create({
        shell: "browser",
        version: "test",
        workspace: { path: workspace, name: "repo" },
        dataRoot,
      }),
    ).rejects.toThrow(message);

    // The desktop app opens folders after it starts: the same refusal reaches its window, which stays as it was.
    const desktop = await DeskHost.create({ shell: "electron", version: "test", dataRoot });
    try {
      await expect(calls(desktop).openWorkspace({ path: workspace })).rejects.toThrow(message);
      expect(desktop.state().workspace).toBeNull();
      // The owner still holds it and works on.
      expect(host.state().workspace?.path).toBe(workspace);
    } finally {
      await desktop.dispose();
    }
  });

  it("keeps each open folder's lock while another opens beside it, and gives them all up on quit", async () => {
    const { host, workspace, root } = await startHost([]);
    const dataRoot = join(root, "data");
    const other = join(root, "other");
    mkdirSync(other);
    const lockOf = (path: string) => workspaceLockFile(workspaceDataDir(dataRoot, path));
    expect(JSON.parse(readFileSync(lockOf(workspace), "utf8"))).toMatchObject({
      pid: process.pid,
      reach: "browser host",
    });
    // A new chat on the same folder keeps the lock it has.
    await calls(host).newSession();
    expect(existsSync(lockOf(workspace))).toBe(true);

    await calls(host).openWorkspace({ path: other });
    expect(existsSync(lockOf(workspace))).toBe(true);
    expect(existsSync(lockOf(other))).toBe(true);
    expect(host.state().workspaces.map((open) => open.path)).toEqual([workspace, other]);
    await host.dispose();
    expect(existsSync(lockOf(workspace))).toBe(false);
    expect(existsSync(lockOf(other))).toBe(false);
  });
});
