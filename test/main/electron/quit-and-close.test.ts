import { describe, expect, it } from "vitest";
import { guardQuit } from "../../../src/main/electron/quit-guard";
import { applyWindowRules } from "../../../src/main/electron/window-rules";
import { stopQuestion } from "../../../src/main/electron/work-in-flight";
import type { CommandView } from "../../../src/shared/commands";
import { calls, commandOf, pendingApproval, runCommand, startHost, waitFor } from "../core/host-harness";
import { FakeApp, FakeWindow, questions, sleeps } from "./electron-stand-ins";

// The quit guard and the window rules over stand-ins for Electron's app and window, with a real host
// (scripted model, real commands): what a quit asks, what it ends, and what closing the window does.

/** A host running `sleep <tag>` as command "call-long". */
async function hostRunning(tag: string) {
  const started = await startHost([
    [runCommand("call-long", `sleep ${tag}`, 60)],
    [{ type: "text", text: "Done." }],
  ]);
  await calls(started.host).prompt({ text: "Run it" });
  const approvalId = await pendingApproval(started.host, "call-long");
  await started.host.handlers.decide({ approvalId, decision: { kind: "approve" } });
  await waitFor(() => commandOf(started.host, "call-long")?.phase === "running" && sleeps(tag).length === 1);
  return started;
}

function desktop(host: Parameters<typeof guardQuit>[0]["host"], platform: NodeJS.Platform = "linux") {
  const app = new FakeApp();
  const window = new FakeWindow();
  const asked = questions();
  const unhooked: string[] = [];
  const quit = guardQuit({
    app: app.asApp,
    host,
    ask: asked.ask,
    beforeDispose: () => unhooked.push("ipc and watches"),
  });
  applyWindowRules({ app: app.asApp, window: window as never, platform, quitting: quit.quitting });
  return { app, window, asked, unhooked, quit };
}

const view = (command: string, phase: CommandView["phase"]) => ({ command, phase }) as CommandView;

describe("quitting the desktop app with work in flight", () => {
  it("asks once, naming the commands; Cancel keeps them running, Quit ends them before the app exits", async () => {
    const { host } = await hostRunning("52.71");
    const shell = desktop(host);
    shell.app.quit();
    shell.app.quit(); // a second Cmd+Q while the question shows
    expect(shell.asked.asked.map((a) => a.question)).toEqual([
      "Quit and stop 1 running command (sleep 52.71)?",
    ]);
    shell.asked.asked[0]?.answer(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shell.app.exited).toBe(false);
    expect(sleeps("52.71")).toHaveLength(1);
    expect(commandOf(host, "call-long")?.phase).toBe("running");

    shell.app.quit();
    expect(shell.asked.asked).toHaveLength(2);
    shell.asked.asked[1]?.answer(true);
    await waitFor(() => shell.app.exited);
    expect(shell.unhooked).toEqual(["ipc and watches"]);
    expect(sleeps("52.71")).toEqual([]);
  });

  it("quits at once when nothing runs or waits", async () => {
    const { host } = await startHost([]);
    const shell = desktop(host);
    shell.app.quit();
    await waitFor(() => shell.app.exited);
    expect(shell.asked.asked).toEqual([]);
  });

  it("words the question for what runs and what waits", () => {
    expect(stopQuestion("Quit", [view("npm run dev", "background"), view("npm test", "running")])).toBe(
      "Quit and stop 2 running commands (npm run dev, npm test)?",
    );
    expect(
      stopQuestion("Quit", [
        view("npm run dev", "running"),
        view("rm -rf build\nnpm run build", "pending"),
        view("a", "pending"),
        view("b", "running"),
      ]),
    ).toBe(
      "Quit and stop 2 running commands and 2 commands waiting for approval (npm run dev, rm -rf build…, a, 1 more)?",
    );
    expect(stopQuestion("Quit", [view("npm test", "running")], [{ tool: "edit", path: "src/sum.js" }])).toBe(
      "Quit and stop 1 running command and 1 file edit waiting for approval (npm test, edit src/sum.js)?",
    );
    expect(stopQuestion("Quit", [])).toBeUndefined();
  });
});

describe("closing the window", () => {
  it("on macOS hides it: the app stays in the dock, its running command goes on, and a dock click brings it back", async () => {
    const { host } = await hostRunning("52.72");
    const shell = desktop(host, "darwin");
    shell.window.close();
    expect(shell.window.closed).toBe(false);
    expect(shell.window.visible).toBe(false);
    expect(shell.asked.asked).toEqual([]);
    expect(shell.app.exited).toBe(false);
    expect(sleeps("52.72")).toHaveLength(1);

    shell.window.minimized = true;
    shell.app.emit("activate");
    expect(shell.window.calls).toEqual(["hide", "restore", "show", "focus"]);

    // Cmd+Q still asks, and a confirmed quit really closes the window.
    shell.app.quit();
    shell.asked.asked[0]?.answer(true);
    await waitFor(() => shell.app.exited);
    shell.window.close();
    expect(shell.window.closed).toBe(true);
  });

  it("on Windows and Linux is quitting: it asks first, and the window stays when the person says no", async () => {
    const { host } = await hostRunning("52.73");
    const shell = desktop(host, "linux");
    shell.window.close();
    expect(shell.asked.asked.map((a) => a.question)).toEqual([
      "Quit and stop 1 running command (sleep 52.73)?",
    ]);
    shell.asked.asked[0]?.answer(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shell.window.closed).toBe(false);
    expect(shell.window.visible).toBe(true);
    expect(sleeps("52.73")).toHaveLength(1);

    shell.window.close();
    shell.asked.asked[1]?.answer(true);
    await waitFor(() => shell.app.exited);
    expect(sleeps("52.73")).toEqual([]);
  });
});
