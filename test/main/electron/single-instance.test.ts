import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import {
  answerSecondLaunch,
  claimSingleInstance,
  type SecondLaunch,
  workspaceArgument,
} from "../../../src/main/electron/single-instance";
import { calls, commandOf, pendingApproval, runCommand, startHost, waitFor } from "../core/host-harness";
import { FakeApp, questions, sleeps } from "./electron-stand-ins";

// A later launch of the desktop app, over a stand-in for Electron's app and a real host: it brings the
// window forward and, with --workspace, opens that folder here beside those open.

function shellFor(host: DeskHost) {
  const asked = questions();
  const told: [string, string][] = [];
  const forward: string[] = [];
  return {
    asked,
    told,
    forward,
    shell: {
      host,
      bringForward: () => forward.push("forward"),
      ask: asked.ask,
      tell: (message: string, detail: string) => told.push([message, detail]),
    },
  };
}

describe("one desktop app at a time", () => {
  it("leaves when another instance holds the lock, and hands later launches to the first, the early ones too", () => {
    const other = new FakeApp();
    other.lockIsOurs = false;
    expect(claimSingleInstance(other.asApp)).toBeNull();

    const app = new FakeApp();
    const instance = claimSingleInstance(app.asApp);
    const early = { argv: ["pi-desk", "--workspace", "a"], cwd: "/w" };
    app.emit("second-instance", {}, early.argv, early.cwd);
    const seen: SecondLaunch[] = [];
    instance?.handle((launch) => seen.push(launch));
    app.emit("second-instance", {}, ["pi-desk"], "/x");
    expect(seen).toEqual([early, { argv: ["pi-desk"], cwd: "/x" }]);
  });

  it("reads --workspace relative to where the later launch was started", () => {
    expect(workspaceArgument(["electron", ".", "--workspace", "repo"], "/home/me/src")).toBe(
      "/home/me/src/repo",
    );
    expect(workspaceArgument(["electron", ".", "--workspace", "/abs/repo"], "/x")).toBe("/abs/repo");
    expect(workspaceArgument(["electron", "."], "/x")).toBeUndefined();
  });

  it("brings the window forward, and opens the folder asked for when nothing runs", async () => {
    const { host, root } = await startHost([]);
    mkdirSync(join(root, "other"));
    const fake = shellFor(host);
    await answerSecondLaunch(fake.shell, { argv: ["pi-desk"], cwd: root });
    expect(fake.forward).toEqual(["forward"]);
    await answerSecondLaunch(fake.shell, { argv: ["pi-desk", "--workspace", "other"], cwd: root });
    expect(host.state().workspace?.path).toBe(join(root, "other"));
    expect(fake.asked.asked).toEqual([]);
    expect(fake.told).toEqual([]);
  });

  it("opens another folder beside the one open: a command running there goes on, and the same folder opens once", async () => {
    const { host, root, workspace } = await startHost([
      [runCommand("call-long", "sleep 53.81", 60)],
      [{ type: "text", text: "Done." }],
    ]);
    mkdirSync(join(root, "other"));
    await calls(host).prompt({ text: "Run it" });
    const approvalId = await pendingApproval(host, "call-long");
    await host.handlers.decide({ approvalId, decision: { kind: "approve" } });
    await waitFor(() => commandOf(host, "call-long")?.phase === "running" && sleeps("53.81").length === 1);
    const fake = shellFor(host);
    const firstChat = host.state().chatId as string;

    await answerSecondLaunch(fake.shell, { argv: ["pi-desk", "--workspace", join(root, "other")], cwd: "/" });
    expect(host.state().workspaces.map((open) => open.path)).toEqual([workspace, join(root, "other")]);
    expect(host.command("call-long", firstChat)?.phase).toBe("running");
    expect(sleeps("53.81")).toHaveLength(1);
    // The same folder again opens nothing more.
    await answerSecondLaunch(fake.shell, { argv: ["pi-desk", "--workspace", workspace], cwd: "/" });
    expect(host.state().workspaces).toHaveLength(2);
    expect(host.state().chats).toHaveLength(2);
    await calls(host, firstChat).cancelCommand({ commandId: "call-long" });
    await waitFor(() => sleeps("53.81").length === 0);
  });

  it("says why a folder was not opened (another Pi Desk holds it) and keeps the open one", async () => {
    const { host, root, workspace } = await startHost([]);
    const holder = await DeskHost.create({ shell: "browser", version: "test", dataRoot: join(root, "data") });
    mkdirSync(join(root, "held"));
    await holder.handlers.openWorkspace({ path: join(root, "held") });
    try {
      const fake = shellFor(host);
      await answerSecondLaunch(fake.shell, { argv: ["pi-desk", "--workspace", "held"], cwd: root });
      expect(fake.told).toEqual([
        [
          "Pi Desk did not open that folder",
          `This folder is already open in Pi Desk (pid ${process.pid}, browser host). Close it first, or open another folder.`,
        ],
      ]);
      expect(host.state().workspace?.path).toBe(workspace);
    } finally {
      await holder.dispose();
    }
  });
});
