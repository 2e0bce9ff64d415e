import { execFileSync } from "node:child_process";
import { expect as baseExpect, type Locator, type Page, type TestInfo } from "@playwright/test";
import type { DeskServer, ScriptBlock } from "./desk-server";

/**
 * `expect` with room for a loaded machine: the host starts Pi, runs real processes and streams their
 * output, and a CI runner shared with other jobs can take seconds over what a laptop takes.
 */
export const expect = baseExpect.configure({ timeout: 15_000 });

/** How long a UI spec may take, for the same reason. */
export const UI_TEST_TIMEOUT_MS = 90_000;

/** A scripted turn's text block. */
export const say = (text: string): ScriptBlock => ({ type: "text", text });

/** A scripted turn's call of Pi's `edit` tool: `oldText` replaced by `newText` in `path`. */
export const edit = (id: string, path: string, oldText: string, newText: string): ScriptBlock => ({
  type: "toolCall",
  id,
  name: "edit",
  arguments: { path, edits: [{ oldText, newText }] },
});

/** A scripted turn's `run_command` call, with the id the card will carry. */
export const runCommand = (id: string, command: string, timeout?: number): ScriptBlock => ({
  type: "toolCall",
  id,
  name: "run_command",
  arguments: timeout === undefined ? { command } : { command, timeout },
});

/** Opens the host's page and waits until it is connected and showing the workspace. */
export async function openDesk(page: Page, desk: DeskServer): Promise<void> {
  await page.goto(desk.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");
  await expect(page.getByTestId("workspace-path")).toHaveText(desk.workspace);
}

/** Sends a message the way a person does: type, then Enter. */
export async function send(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("prompt-input");
  await input.fill(text);
  await input.press("Enter");
}

/** The transcript card of a command (once decided: while it waits, the transcript holds a `pending-line`). */
export function card(page: Page, commandId: string): Locator {
  return page.locator(`[data-testid="command-card"][data-command-id="${commandId}"]`);
}

/**
 * A command's card in the approval tray, the one place it is drawn in full while it waits and where the
 * person decides. Its inner test ids are prefixed `tray-` (`tray-approve-button`, `tray-deny-reason`, ...).
 */
export function trayCard(page: Page, commandId: string): Locator {
  return page.locator(`[data-testid="tray-item"][data-command-id="${commandId}"]`);
}

/**
 * Waits until a command is waiting for the person, with its actions shown, and returns its card in the
 * tray, where the person decides. The transcript meanwhile shows one line leading there.
 */
export async function expectPending(page: Page, commandId: string): Promise<Locator> {
  const found = trayCard(page, commandId);
  await expect(found).toHaveAttribute("data-status", "pending");
  await expect(found.getByTestId("tray-approve-button")).toBeEnabled();
  await expect(page.locator(`[data-testid="pending-line"][data-command-id="${commandId}"]`)).toHaveCount(1);
  return found;
}

/** Attaches a screenshot of the page to the test's report (and keeps it in the test's output folder). */
export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name.replace(/[^\w-]+/g, "-")}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/** Process command lines containing `needle` (this machine's, read with `ps`), to prove a command is gone. */
export function processesMatching(needle: string): string[] {
  const listing = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return listing
    .split("\n")
    .filter((line) => line.includes(needle) && !line.includes("ps -eo"))
    .map((line) => line.trim());
}

/**
 * Scrolls the transcript until a command's card is drawn, and returns it in view, the way a person
 * looks for an older entry: a few screenfuls up from where the view is, then from the start down, a
 * screenful at a time. The transcript draws only the entries near its view, so an older command's card
 * is not in the page until the transcript is scrolled to it.
 */
export async function scrollToCard(page: Page, commandId: string): Promise<Locator> {
  const transcript = page.getByTestId("transcript");
  const found = card(page, commandId);
  /** Scrolls by `by` screenfuls (or to the top, for 0) and waits for the frames that draw and measure. */
  const scroll = (by: number) =>
    transcript.evaluate(async (el, screens) => {
      const before = el.scrollTop;
      el.scrollTop = screens === 0 ? 0 : el.scrollTop + screens * el.clientHeight * 0.9;
      // (The harness is also compiled without the DOM's types: the page's own function, by name.)
      const frame = (globalThis as unknown as { requestAnimationFrame: (then: () => void) => void })
        .requestAnimationFrame;
      await new Promise<void>((resolve) => frame(() => frame(resolve)));
      return el.scrollTop !== before;
    }, by);
  for (let step = 0; step < 5 && (await found.count()) === 0; step++) await scroll(-1);
  // At the top, entries measured on the way down do not move what is above them.
  for (let step = 0; step < 10 && (await found.count()) === 0 && (await scroll(0)); step++);
  for (let step = 0; step < 2000 && (await found.count()) === 0; step++) {
    if (!(await scroll(1))) break;
  }
  // The transcript may draw the card anew (measured again, or moved by a decision) between finding it and
  // scrolling to it: a detached element is found again rather than failing the spec.
  await expect(async () => {
    await found.scrollIntoViewIfNeeded({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  return found;
}

/** Waits for the workspace's first snapshot (Settings says recording is on), then goes back to the chat. */
export async function whenRecording(page: Page): Promise<void> {
  await page.getByTestId("nav-settings").click();
  await expect(page.getByTestId("changes-settings")).toHaveAttribute("data-state", "on");
  await page.getByTestId("nav-chat").click();
}
