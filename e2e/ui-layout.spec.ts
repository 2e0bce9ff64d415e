import type { Page } from "@playwright/test";
import {
  expect,
  openDesk,
  say,
  scrollToCard,
  send,
  trayCard,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import type { DeskServer, Script, ScriptBlock } from "../harness/desk-server";
import { test } from "./support/desk-test";

// Every window size, in both themes, with 6, 3 and 1 commands waiting: a few dozen layouts per test.
test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS * 3 });

/** The window sizes people use, from a small laptop to a big screen. */
const SIZES = [
  { width: 1024, height: 640 },
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];
const THEMES = ["light", "dark"] as const;

const call = (id: string, args: Record<string, unknown>): ScriptBlock => ({
  type: "toolCall",
  id,
  name: "run_command",
  arguments: args,
});
/** A small server-like loop: runs until stopped, printing now and then. */
const server = (name: string) => `while true; do echo ${name} serving; sleep 2; done`;
const WAITING = ["npm test", "git status", "ls -la src", "npm run lint", "git diff --stat", "node --version"];

/** Two servers in the background (each approved), then six one-line commands asked at once. */
function script(): Script {
  return [
    [
      say("I will start the two servers."),
      ...["srv-1", "srv-2"].map((id) => call(id, { command: server(id), background: true })),
    ],
    [
      say("Now the checks, to see where the project stands."),
      ...WAITING.map((command, i) => call(`c${i + 1}`, { command, timeout: 30 })),
    ],
    [say("Done.")],
  ];
}

/** What the layout check found wrong, in words; empty when every rule holds. */
async function layoutProblems(page: Page): Promise<string[]> {
  // Let resize observers and the out-of-view counters settle.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return page.evaluate(() => {
    const problems: string[] = [];
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const rect = (el: Element) => el.getBoundingClientRect();
    const inside = (r: DOMRect) => r.top >= 0 && r.left >= 0 && r.bottom <= vh + 0.5 && r.right <= vw + 0.5;
    const byId = (id: string) => document.querySelector(`[data-testid="${id}"]`);

    for (const id of ["prompt-input", "send-button"]) {
      const el = byId(id);
      if (!el) problems.push(`${id} is missing`);
      else if (!inside(rect(el)))
        problems.push(`${id} is not wholly in the window: ${JSON.stringify(rect(el))}`);
    }
    const transcript = byId("transcript");
    if (!transcript) problems.push("the transcript is missing");
    else if (rect(transcript).height < vh / 3 - 1) {
      problems.push(`the transcript is ${rect(transcript).height}px high, under a third of ${vh}px`);
    }
    // Top to bottom, nothing over anything: Running panel, tray, transcript, composer.
    const footer = document.querySelector(".chat-footer");
    const stack = [byId("background-panel"), byId("approval-tray"), transcript, footer].filter(
      (el): el is Element => el !== null,
    );
    for (let i = 1; i < stack.length; i++) {
      const [above, below] = [stack[i - 1] as Element, stack[i] as Element];
      if (rect(above).bottom > rect(below).top + 0.5) {
        problems.push(`${above.className} overlaps ${below.className}`);
      }
    }
    // Every decision and Stop button, scrolled into view within its own scroll area only, takes the click.
    const names = /^(tray-)?(approve|deny|edit|stop|background-stop|send)-button$/;
    const buttons = Array.from(document.querySelectorAll<HTMLElement>("button[data-testid]")).filter((b) =>
      names.test(b.dataset.testid ?? ""),
    );
    for (const button of buttons) {
      const area = button.closest(".tray-scroll, .background-scroll, .transcript");
      if (area) {
        const offset = rect(button).top - rect(area).top;
        area.scrollTop += offset - area.clientHeight / 2 + rect(button).height / 2;
      }
      const r = rect(button);
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !button.contains(hit)) {
        const where = `${button.dataset.testid} of ${button.closest("[data-command-id]")?.getAttribute("data-command-id")}`;
        problems.push(`${where} is covered at its centre by ${hit?.outerHTML.slice(0, 80) ?? "nothing"}`);
      }
    }
    // A scroll area that does not show all its entries says so.
    for (const [area, note] of [
      ["tray-scroll", "tray-out-of-view"],
      ["background-scroll", "background-out-of-view"],
    ]) {
      const box = byId(area as string) as HTMLElement | null;
      const said = byId(note as string) as HTMLElement | null;
      if (!box || !said) continue;
      box.scrollTop = 0;
      const overflows = box.scrollHeight > box.clientHeight + 1;
      if (overflows && said.hidden) problems.push(`${area} hides entries without saying so`);
    }
    // Scrolled to its top, the tray shows the first waiting card's decision buttons, whatever else is open.
    const trayBox = byId("tray-scroll");
    const first = trayBox?.querySelector('[data-testid="tray-approve-button"]');
    if (trayBox && first) {
      const [box, button] = [rect(trayBox), rect(first)];
      if (button.top < box.top - 0.5 || button.bottom > box.bottom + 0.5) {
        problems.push(
          `the first card's Approve is out of the tray's view: ${JSON.stringify({ box, button })}`,
        );
      }
    }
    return problems;
  });
}

/** The number of full cards of each waiting command in the page: exactly one each, in the tray. */
async function fullCardsOf(page: Page, ids: string[]): Promise<number[]> {
  return Promise.all(
    ids.map((id) =>
      page
        .locator(`[data-command-id="${id}"]:is([data-testid="command-card"], [data-testid="tray-item"])`)
        .count(),
    ),
  );
}

/** Checks the layout at each size in both themes, and that each waiting command is drawn in full once. */
async function checkEverySize(page: Page, waiting: string[], label: string, sizes = SIZES): Promise<void> {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    for (const size of sizes) {
      await page.setViewportSize(size);
      await expect(page.getByTestId("tray-item")).toHaveCount(waiting.length);
      // Polled: the "N more below" notes follow a resize on the next frame (a ResizeObserver), not at once.
      await expect
        .poll(() => layoutProblems(page), { message: `${label}, ${size.width}×${size.height}, ${theme}` })
        .toEqual([]);
    }
  }
  expect(await fullCardsOf(page, waiting)).toEqual(waiting.map(() => 1));
  await expect(page.getByTestId("pending-line")).toHaveCount(waiting.length);
}

/** Denies the waiting commands named, from the tray, until only the rest wait. */
async function deny(page: Page, ids: string[]): Promise<void> {
  for (const id of ids) {
    const item = trayCard(page, id);
    await item.getByTestId("tray-deny-button").click();
    await item.getByTestId("tray-deny-confirm").click();
    // Decided, it leaves the tray; its card takes its line's place in the transcript, which draws only
    // what is near its view: in a short window, scroll to it.
    await expect(item).toHaveCount(0);
    await expect(await scrollToCard(page, id)).toHaveAttribute("data-status", "denied");
  }
}

/** Starts both servers from the tray, waits for the six commands, and opens the Running panel. */
async function startServersAndAsk(page: Page, scriptedDesk: (script: Script) => Promise<DeskServer>) {
  const desk = await scriptedDesk(script());
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDesk(page, desk);
  await send(page, "Start the servers, then check the project");
  for (const id of ["srv-1", "srv-2"]) {
    const item = trayCard(page, id);
    const network = item.getByTestId("tray-allow-network");
    if (await network.count()) await network.check();
    await item.getByTestId("tray-approve-button").click();
  }
  await expect(page.getByTestId("tray-item")).toHaveCount(6, { timeout: 30_000 });
  await page.getByTestId("background-panel-button").click();
  await expect(page.getByTestId("background-item")).toHaveCount(2);
}

test("every window size, light and dark: with the Running panel open and 6, 3, 1 commands waiting, every button can be clicked and the composer stays in view", async ({
  page,
  scriptedDesk,
}) => {
  await startServersAndAsk(page, scriptedDesk);
  const ids = WAITING.map((_, i) => `c${i + 1}`);
  await checkEverySize(page, ids, "6 waiting");
  await deny(page, ids.slice(3));
  await checkEverySize(page, ids.slice(0, 3), "3 waiting");
  await deny(page, ids.slice(1, 3));
  await checkEverySize(page, ids.slice(0, 1), "1 waiting");
});

test("in Chinese at 1280×720, the same holds", async ({ page, scriptedDesk }) => {
  await page.addInitScript(() => localStorage.setItem("pi-desk-language", "zh-CN"));
  await startServersAndAsk(page, scriptedDesk);
  await expect(page.getByTestId("approval-tray").getByRole("heading")).toHaveText("待批准（6）");
  const ids = WAITING.map((_, i) => `c${i + 1}`);
  const size = [{ width: 1280, height: 720 }];
  await checkEverySize(page, ids, "6 waiting, zh", size);
  await deny(page, ids.slice(3));
  await checkEverySize(page, ids.slice(0, 3), "3 waiting, zh", size);
  await deny(page, ids.slice(1, 3));
  await checkEverySize(page, ids.slice(0, 1), "1 waiting, zh", size);
});

test("three one-line commands and the composer fit a 1280×720 window without scrolling the tray", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([
    [
      say("Three checks."),
      ...WAITING.slice(0, 3).map((command, i) => call(`c${i + 1}`, { command, timeout: 30 })),
    ],
    [say("Done.")],
  ]);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDesk(page, desk);
  await send(page, "Check the project");
  await expect(page.getByTestId("tray-item")).toHaveCount(3);
  await expect.poll(() => layoutProblems(page)).toEqual([]);
  const scroll = page.getByTestId("tray-scroll");
  const fits = await scroll.evaluate((el) => el.scrollHeight <= el.clientHeight + 1);
  expect(fits, "the tray shows all three without scrolling").toBe(true);
  await expect(page.getByTestId("tray-out-of-view")).toBeHidden();

  // The transcript's line brings its card into view and focuses it.
  await page.locator('[data-testid="pending-line"][data-command-id="c3"]').click();
  await expect(trayCard(page, "c3")).toBeFocused();
});

test("three chats with six commands waiting among them: the sidebar and the one tray hold at every size, light and dark", async ({
  page,
  scriptedDesk,
}) => {
  const twoChecks = (chat: string, first: string, second: string): ScriptBlock[][] => [
    [
      say(`Chat ${chat} checks.`),
      call(`call-${chat}1`, { command: first, timeout: 30 }),
      call(`call-${chat}2`, { command: second, timeout: 30 }),
    ],
    [say("Done.")],
  ];
  const desk = await scriptedDesk({
    one: twoChecks("a", "npm test", "git status"),
    two: twoChecks("b", "ls -la src", "npm run lint"),
    three: twoChecks("c", "git diff --stat", "node --version"),
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDesk(page, desk);
  await send(page, "one: check");
  for (const name of ["two", "three"]) {
    await page.getByTestId("new-chat-button").click();
    await page.getByTestId("new-chat-here").click();
    await expect(page.locator('.chat-item-open[aria-current="true"]')).toContainText("New chat");
    await send(page, `${name}: check`);
  }
  await expect(page.getByTestId("tray-item")).toHaveCount(6, { timeout: 30_000 });
  await expect(page.getByTestId("chat-item")).toHaveCount(3);
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await expect
        .poll(() => layoutProblems(page), { message: `three chats, ${size.width}×${size.height}, ${theme}` })
        .toEqual([]);
      // Every chat of the sidebar can be reached and clicked.
      const covered = await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>(".chat-item-open")).flatMap((button) => {
          button.scrollIntoView({ block: "center" });
          const r = button.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit && button.contains(hit) ? [] : [button.textContent ?? ""];
        }),
      );
      expect(covered, `sidebar chats covered at ${size.width}×${size.height}`).toEqual([]);
    }
  }
  // Each card names its chat, once, and every chat shows its two waiting.
  await expect(page.getByTestId("tray-chat-name")).toHaveText([
    "one: check",
    "one: check",
    "two: check",
    "two: check",
    "three: check",
    "three: check",
  ]);
  for (const item of await page.getByTestId("chat-item").all())
    await expect(item).toHaveAttribute("data-waiting", "2");
});
