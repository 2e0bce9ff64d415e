import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  card,
  expect,
  expectPending,
  openDesk,
  processesMatching,
  runCommand,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import { startDeskServer, stopDeskServer } from "../harness/desk-server";
import type { AuditEntry } from "../src/shared/rules";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** Every audit line of every workspace in a data folder, oldest first. */
function auditLines(dataDir: string): AuditEntry[] {
  const workspaces = join(dataDir, "workspaces");
  return readdirSync(workspaces).flatMap((id) =>
    readFileSync(join(workspaces, id, "audit.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditEntry),
  );
}

/** The command's two sleeps (the sandbox's and bash's command lines hold the text too, so match whole). */
const sleepers = () => processesMatching("sleep 313.").filter((line) => /^\d+ sleep 313\.[56]$/.test(line));

test("a host killed mid-run: the next start ends what it left running, and the finished result is kept", async ({
  page,
}, testInfo) => {
  test.skip(process.platform === "win32", "SIGKILL and process groups are Unix");
  const root = mkdtempSync(join(tmpdir(), "pi-desk-host-crash-"));
  const workspace = join(root, "repo");
  mkdirSync(workspace);
  const script = join(root, "script.json");
  writeFileSync(
    script,
    JSON.stringify([
      [runCommand("call-done", "echo finished-before-the-crash", 10)],
      [runCommand("call-cut", "sleep 313.5 & setsid sleep 313.6 & wait", 60)],
      [say("unreachable")],
    ]),
  );
  // The same data and Pi folders for both starts, as on a person's machine.
  const env = {
    PI_DESK_SCRIPT: script,
    PI_OFFLINE: "1",
    PI_CODING_AGENT_DIR: join(root, "agent"),
    PI_DESK_DATA_DIR: join(root, "data"),
  };
  const hosts: ChildProcess[] = [];
  try {
    const first = await startDeskServer(workspace, { env });
    hosts.push(first.child);
    await openDesk(page, first.server);
    // Outside the sandbox: inside it, bubblewrap ends the command with the host (--die-with-parent), so
    // only an unsandboxed tree is left for the next start to find.
    await page.getByTestId("nav-settings").click();
    // A click, not uncheck(): the box follows the host's answer, a moment later.
    await page.getByTestId("sandbox-enabled").click();
    await expect(page.getByTestId("sandbox-enabled")).not.toBeChecked();
    await page.getByTestId("nav-chat").click();
    await send(page, "Run them");
    await (await expectPending(page, "call-done")).getByTestId("tray-approve-button").click();
    await expect(card(page, "call-done")).toHaveAttribute("data-status", "succeeded");
    await (await expectPending(page, "call-cut")).getByTestId("tray-approve-button").click();
    await expect(card(page, "call-cut")).toHaveAttribute("data-status", "running");
    await expect.poll(() => sleepers().length, { timeout: 10_000 }).toBe(2);

    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    // Detached from the dead host, the command's tree lives on until the next start finds it.
    expect(sleepers()).toHaveLength(2);

    const second = await startDeskServer(workspace, { env });
    hosts.push(second.child);
    await expect.poll(() => sleepers(), { timeout: 10_000 }).toEqual([]);
    // The audit log has the cut command's end, as far as anyone can know it.
    const ends = auditLines(join(root, "data")).filter((entry) => entry.commandId === "call-cut");
    expect(ends.map((entry) => [entry.event, entry.by, entry.status])).toEqual([
      ["approved", "person", undefined],
      ["finished", "host", "interrupted"],
    ]);

    await openDesk(page, second.server);
    await page.getByTestId("session-item").first().click();
    const done = card(page, "call-done");
    await expect(done).toHaveAttribute("data-status", "succeeded");
    await expect(done.getByTestId("command-output")).toContainText("finished-before-the-crash");
    // Its end is unknown: shown as cut short by the host, never as waiting or running.
    await expect(card(page, "call-cut")).toHaveAttribute("data-status", "interrupted");
    await expect(page.getByTestId("approve-button")).toHaveCount(0);
    await shot(page, testInfo, "after the crash, the conversation reopened");
  } finally {
    for (const host of hosts) await stopDeskServer(host);
    rmSync(root, { recursive: true, force: true });
  }
});
