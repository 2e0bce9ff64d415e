import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import { calls, startHost } from "./host-harness";

describe("notifications of waiting commands", () => {
  it("are on by default, turned off and on by the person, and kept across a restart", async () => {
    const { host, events, root, workspace } = await startHost([]);
    expect(host.state().notifications).toBe(true);
    await calls(host).setNotifications({ enabled: false });
    expect(host.state().notifications).toBe(false);
    expect(events).toContainEqual(expect.objectContaining({ type: "notifications-changed", enabled: false }));
    // Quit first: a live host keeps its workspace.
    await host.dispose();

    const again = await DeskHost.create({
      shell: "browser",
      version: "test",
      workspace: { path: workspace, name: "repo" },
      dataRoot: join(root, "data"),
    });
    try {
      expect(again.state().notifications).toBe(false);
    } finally {
      await again.dispose();
    }
  });

  it("are on when the preferences file is damaged", async () => {
    const { root } = await startHost([]);
    writeFileSync(join(root, "data", "preferences.json"), "{broken");
    const again = await DeskHost.create({ shell: "browser", version: "test", dataRoot: join(root, "data") });
    try {
      expect(again.state().notifications).toBe(true);
    } finally {
      await again.dispose();
    }
  });
});
