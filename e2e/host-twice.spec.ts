import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import {
  card,
  expect,
  expectPending,
  openDesk,
  processesMatching,
  runCommand,
  say,
  send,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import { type ScriptBlock, startDeskServer, stopDeskServer } from "../harness/desk-server";
import { freePort } from "../harness/free-port";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: 3 * UI_TEST_TIMEOUT_MS });

/** Whether a page is served on the port: the HTTP status, or the error's text. */
async function reach(port: number): Promise<number | string> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/`)).status;
  } catch (error) {
    return String(error);
  }
}

/** A host that should refuse to start: its exit code and everything it printed. */
function runToTheEnd(
  workspace: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["out/main/serve.js", "--workspace", workspace, "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

/** The command's sleep (the sandbox's and bash's command lines hold the text too, so match whole). */
const sleepers = () => processesMatching("sleep 319.5").filter((line) => /^\d+ sleep 319\.5$/.test(line));

/** In a host's page: the sandbox off, then the background server and the long command approved and running. */
async function startBoth(page: Page): Promise<void> {
  // Outside the sandbox: inside it, bubblewrap ends a command with its host, so a SIGKILLed host would leave
  // nothing for the next start to reap.
  await page.getByTestId("nav-settings").click();
  // The workspace keeps the setting: the next host on it starts with it off already.
  if (await page.getByTestId("sandbox-enabled").isChecked())
    await page.getByTestId("sandbox-enabled").click();
  await expect(page.getByTestId("sandbox-enabled")).not.toBeChecked();
  await page.getByTestId("nav-chat").click();
  await send(page, "Start the server, then the tests");
  await (await expectPending(page, "bg-1")).getByTestId("tray-approve-button").click();
  await expect(card(page, "bg-1")).toHaveAttribute("data-status", "background", { timeout: 20_000 });
  await (await expectPending(page, "call-long")).getByTestId("tray-approve-button").click();
  await expect(card(page, "call-long")).toHaveAttribute("data-status", "running");
}

test("Pi Desk opened twice on one folder: the second refuses and names the first, whose work goes on; after a clean quit or a crash the next one opens it", async ({
  page,
}) => {
  test.skip(process.platform === "win32", "SIGKILL and process groups are Unix");
  const root = mkdtempSync(join(tmpdir(), "pi-desk-twice-"));
  const workspace = join(root, "repo");
  mkdirSync(workspace);
  const port = await freePort();
  const server = `python3 -m http.server ${port} --bind 127.0.0.1`;
  const background: ScriptBlock = {
    type: "toolCall",
    id: "bg-1",
    name: "run_command",
    arguments: { command: server, background: true },
  };
  const script = join(root, "script.json");
  writeFileSync(
    script,
    JSON.stringify([[background], [runCommand("call-long", "sleep 319.5", 120)], [say("unreachable")]]),
  );
  // One data folder and one Pi folder for every host, as on a person's machine.
  const env = {
    PI_DESK_SCRIPT: script,
    PI_OFFLINE: "1",
    PI_CODING_AGENT_DIR: join(root, "agent"),
    PI_DESK_DATA_DIR: join(root, "data"),
  };
  const lockFile = () => {
    const workspaces = join(root, "data", "workspaces");
    return readdirSync(workspaces).map((id) => join(workspaces, id, "owner.json"))[0] as string;
  };
  const hosts: ChildProcess[] = [];
  try {
    const first = await startDeskServer(workspace, { env });
    hosts.push(first.child);
    await openDesk(page, first.server);
    await startBoth(page);
    await expect.poll(() => sleepers().length, { timeout: 10_000 }).toBe(1);
    expect(await reach(port)).toBe(200);

    // The second one on the same folder and data: refused, with the first named, and nothing of it touched.
    const second = await runToTheEnd(workspace, env);
    expect(second.code).toBe(1);
    expect(second.output).toContain(
      `This folder is already open in Pi Desk (pid ${first.child.pid}, browser host on ${first.server.origin}). ` +
        "Close it first, or open another folder.",
    );
    expect(second.output).not.toContain("left running");
    expect(second.output).not.toContain("is serving");
    expect(sleepers()).toHaveLength(1);
    expect(await reach(port)).toBe(200);
    await expect(card(page, "call-long")).toHaveAttribute("data-status", "running");
    await expect(card(page, "bg-1")).toHaveAttribute("data-status", "background");

    // A clean quit ends its commands and gives the folder up: the next host opens it at once.
    await stopDeskServer(first.child);
    expect(first.child.exitCode).toBe(0);
    expect(sleepers()).toEqual([]);
    expect(existsSync(lockFile())).toBe(false);
    const third = await startDeskServer(workspace, { env });
    hosts.push(third.child);
    await openDesk(page, third.server);
    await startBoth(page);
    await expect.poll(() => sleepers().length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => reach(port)).toBe(200);

    // A crash leaves its lock and its commands: the next host takes the lock over and ends them.
    third.child.kill("SIGKILL");
    await new Promise((resolve) => third.child.once("exit", resolve));
    expect(existsSync(lockFile())).toBe(true);
    expect(sleepers()).toHaveLength(1);
    const fourth = await startDeskServer(workspace, { env });
    hosts.push(fourth.child);
    await expect.poll(() => sleepers(), { timeout: 10_000 }).toEqual([]);
    await expect.poll(() => reach(port)).not.toBe(200);
    await openDesk(page, fourth.server);
    await expect(page.getByTestId("workspace-name")).toHaveText("repo");
  } finally {
    for (const host of hosts) await stopDeskServer(host);
    rmSync(root, { recursive: true, force: true });
  }
});
