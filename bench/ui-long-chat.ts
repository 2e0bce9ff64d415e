import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Browser, type CDPSession, chromium, type Page } from "@playwright/test";
import { chatCalls } from "../harness/chat-calls.ts";
import { chromiumArgs, chromiumPath } from "../harness/chromium.ts";
import * as ui from "../harness/desk-page.ts";
import { type Script, startDeskServer, stopDeskServer } from "../harness/desk-server.ts";
import { connectDesk, socketTarget } from "../harness/desk-socket.ts";
import { chatScript, LONG_CHAT_LAST_WORDS, prepareLongChat } from "../harness/long-chat.ts";
import { loadavg, machineFacts } from "../harness/machine-facts.ts";

/**
 * The long-chat phase of `npm run bench:ui` (`-- --phase long-chat`): a chat of N commands, each printing
 * L lines and changing a file, made through the real host (an "always allow" workspace rule spares the
 * approvals, the outputs are real), then reopened as a person does after a restart (a new host, the chat
 * chosen from the session list) and measured: time until the last message shows, frames while scrolling
 * from the end to the start, the page's DOM and its JS heap.
 */
export interface LongChatOptions {
  /** Commands in the chat. */
  commands: number;
  /** Lines each command prints. */
  lines: number;
  /** Pixels scrolled per frame on the way from the end to the start (a quick wheel: 60 frames x 400 px/s). */
  scrollStep: number;
  /** Run Chromium with a window. */
  headed: boolean;
  /** Where the JSON goes. */
  out: string;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const quantile = (values: number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};
/** When the last message came into the page and into view (page clock), null for one that did not. */
interface Shown {
  inPage: number | null;
  inView: number | null;
}
const since = (t: number | null, from: number) => (t === null ? null : round(t - from));
const mib = (bytes: number | undefined) => round((bytes ?? 0) / 2 ** 20);

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send("Performance.getMetrics");
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/**
 * Polls every frame until the chat's last message is in the page and then in the transcript's view (or
 * a minute passed); returns both moments (page clock), null for one that did not come.
 */
const LAST_SHOWN = `(words) => new Promise((resolve) => {
  const from = performance.now();
  let inPage = null;
  const look = () => {
    const now = performance.now();
    const box = document.querySelector('[data-testid="transcript"]');
    const messages = document.querySelectorAll('[data-testid="assistant-message"]');
    const last = messages[messages.length - 1];
    if (box && last && (last.textContent || "").includes(words)) {
      if (inPage === null) inPage = now;
      const a = box.getBoundingClientRect();
      const b = last.getBoundingClientRect();
      if (b.bottom > a.top && b.top < a.bottom) return resolve({ inPage, inView: now });
    }
    if (now - from > 60000) return resolve({ inPage, inView: null });
    requestAnimationFrame(look);
  };
  look();
})`;

/**
 * Scrolls the transcript from the end to the start by `step` pixels a frame and records each frame's
 * time; done when the view is at the top and the first entry of the chat is drawn there.
 */
const SCROLL_TO_START = `(step) => new Promise((resolve) => {
  const box = document.querySelector('[data-testid="transcript"]');
  const frames = [];
  let still = 0;
  const from = performance.now();
  const tick = (ts) => {
    frames.push(ts);
    const first = document.querySelector('[data-testid="user-message"]');
    if (box.scrollTop <= 0 && first) still += 1;
    else still = 0;
    if (still >= 10 || ts - from > 300000) {
      resolve({ frames, reachedStart: still >= 10, ms: ts - from, scrollHeight: box.scrollHeight });
      return;
    }
    box.scrollTop = Math.max(0, box.scrollTop - step);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

/**
 * Installed before the page's scripts: when each message holding the host's state (a snapshot, or the
 * reply on connecting: both carry `hostTime`) arrives, and its size.
 */
const SNAPSHOT_PROBE = `(() => {
  const seen = (window.__snapshots = []);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", (e) => {
        const data = typeof e.data === "string" ? e.data : "";
        if (data.includes('"hostTime"')) seen.push({ t: performance.now(), chars: data.length });
      });
    }
  };
})()`;

const countNodes = `() => ({
  elements: document.getElementsByTagName("*").length,
  cards: document.querySelectorAll('[data-testid="command-card"]').length,
  entries: document.querySelectorAll('.transcript-item').length,
  succeeded: document.querySelectorAll('[data-testid="command-card"][data-status="succeeded"]').length,
  changes: document.querySelectorAll('[data-testid="command-card"] [data-testid="changes-summary"]').length,
  outputChars: [...document.querySelectorAll('[data-testid="command-output"]')].reduce((s, e) => s + (e.textContent || "").length, 0),
})`;

/** Makes the chat, reopens it, measures; writes the JSON and prints a table. */
export async function runLongChat(options: LongChatOptions): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  const home = mkdtempSync(join(tmpdir(), "pi-desk-bench-chat-home-"));
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-bench-chat-"));
  const env = prepareLongChat(home, workspace);
  const script: Script = chatScript(options.commands, options.lines);
  writeFileSync(env.PI_DESK_SCRIPT, JSON.stringify(script));
  chmodSync(env.PI_DESK_SCRIPT, 0o600);
  let browser: Browser | undefined;
  let host: Awaited<ReturnType<typeof startDeskServer>> | undefined;
  try {
    // 1. The chat, made through the host with no page open (the person would watch it; what is measured
    // here is the reopening).
    host = await startDeskServer(workspace, { env });
    const madeFrom = performance.now();
    const socket = await connectDesk(host.server);
    let settled: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      settled = resolve;
    });
    let ended = 0;
    socket.onEvent((event) => {
      if (event.type === "command-update" && event.command.details?.status) ended += 1;
      if (event.type === "session-status" && !event.running) settled();
    });
    await chatCalls(socketTarget(socket)).prompt({ text: `Run ${options.commands} commands` });
    const progress = setInterval(() => process.stdout.write(`\r${ended}/${options.commands} commands`), 2000);
    await done;
    clearInterval(progress);
    const madeMs = performance.now() - madeFrom;
    socket.close();
    console.log(`\nmade the chat in ${round(madeMs / 1000)} s`);
    await stopDeskServer(host.child);

    // 2. Reopen: a new host (it starts a new chat, as Pi Desk does), the old chat chosen from the list.
    host = await startDeskServer(workspace, { env });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: chromiumArgs,
      headless: !options.headed,
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(SNAPSHOT_PROBE);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    await ui.openDesk(page, host.server);
    const past = page.getByTestId("session-item").filter({ hasNot: page.locator("[aria-current]") });
    await ui.expect(past).toHaveCount(1);
    const openFrom = (await page.evaluate("performance.now()")) as number;
    const shown = page.evaluate(`(${LAST_SHOWN})(${JSON.stringify(LONG_CHAT_LAST_WORDS)})`) as Promise<Shown>;
    await past.click();
    const openShown = await shown;
    const openMs = since(openShown.inView, openFrom);
    const openInPageMs = since(openShown.inPage, openFrom);
    const openSnapshot = ((await page.evaluate("window.__snapshots")) as { t: number; chars: number }[]).at(
      -1,
    );
    const opened = await measurePage(page, cdp);

    // 3. Reload the page on the reopened chat: the snapshot alone, no host work.
    const reloadFrom = Date.now();
    await page.reload();
    const reloadShown = (await page.evaluate(
      `(${LAST_SHOWN})(${JSON.stringify(LONG_CHAT_LAST_WORDS)})`,
    )) as Shown;
    const navigationStart = (await page.evaluate("performance.timeOrigin")) as number;
    const origin = reloadFrom - navigationStart;
    const reloadMs = since(reloadShown.inView, origin);
    const reloadInPageMs = since(reloadShown.inPage, origin);
    const reloadSnapshot = ((await page.evaluate("window.__snapshots")) as { t: number; chars: number }[]).at(
      -1,
    );
    const reloaded = await measurePage(page, cdp);

    // 4. Scroll from the end to the start.
    const scroll = (await page.evaluate(`(${SCROLL_TO_START})(${options.scrollStep})`)) as {
      frames: number[];
      reachedStart: boolean;
      ms: number;
      scrollHeight: number;
    };
    const intervals = scroll.frames.slice(1).map((t, i) => t - (scroll.frames[i] ?? t));
    const afterScroll = await measurePage(page, cdp);

    const result = {
      startedAt,
      machine: machineFacts({
        loadavgBefore: loadBefore,
        chromium: browser.version(),
        headless: !options.headed,
      }),
      options: { commands: options.commands, lines: options.lines, scrollStep: options.scrollStep },
      madeMs: round(madeMs),
      openFromListToLastMessageMs: openMs,
      openFromListToLastMessageInPageMs: openInPageMs,
      reloadToLastMessageMs: reloadMs,
      reloadToLastMessageInPageMs: reloadInPageMs,
      openSnapshot: openSnapshot
        ? { arrivedMs: round(openSnapshot.t - openFrom), mib: mib(openSnapshot.chars) }
        : null,
      reloadSnapshot: reloadSnapshot
        ? { arrivedMs: round(reloadSnapshot.t - origin), mib: mib(reloadSnapshot.chars) }
        : null,
      opened,
      reloaded,
      scroll: {
        reachedStart: scroll.reachedStart,
        ms: round(scroll.ms),
        frames: scroll.frames.length,
        frameP50Ms: round(quantile(intervals, 0.5)),
        frameP95Ms: round(quantile(intervals, 0.95)),
        frameMaxMs: round(Math.max(0, ...intervals)),
        framesOver50Ms: intervals.filter((d) => d > 50).length,
        scrollHeight: scroll.scrollHeight,
      },
      afterScroll,
    };
    const worstHeap = Math.max(opened.jsHeapUsedMiB, reloaded.jsHeapUsedMiB, afterScroll.jsHeapUsedMiB);
    const worstNodes = Math.max(opened.domNodes, reloaded.domNodes, afterScroll.domNodes);
    const targets = [
      {
        target: "reopening shows the last message within 1.5 s",
        measured: `${result.openFromListToLastMessageMs} ms from the session list, ${result.reloadToLastMessageMs} ms on reload`,
        met: openMs !== null && reloadMs !== null && openMs <= 1500 && reloadMs <= 1500,
      },
      {
        target: "p95 frame under 50 ms scrolling from end to start",
        measured: `${result.scroll.frameP95Ms} ms (max ${result.scroll.frameMaxMs} ms, ${result.scroll.frames} frames, start ${scroll.reachedStart ? "reached" : "NOT reached"})`,
        met: scroll.reachedStart && result.scroll.frameP95Ms < 50,
      },
      { target: "DOM under 5,000 nodes", measured: `${worstNodes} nodes at most`, met: worstNodes < 5000 },
      { target: "JS heap under 150 MiB", measured: `${worstHeap} MiB at most`, met: worstHeap < 150 },
    ];
    const rows: [string, string | number][] = [
      ["chat", `${options.commands} commands x ${options.lines} lines, a file changed by each`],
      ["made in (host, no page)", `${round(madeMs / 1000)} s`],
      [
        "open from the session list -> last message in the page / in view (ms)",
        `${openInPageMs ?? "never"} / ${openMs ?? "not within 60 s"}`,
      ],
      [
        "snapshot (open / reload): arrived at (ms), size (MiB of characters)",
        `${result.openSnapshot?.arrivedMs} / ${result.reloadSnapshot?.arrivedMs}, ${result.openSnapshot?.mib}`,
      ],
      [
        "reload -> last message in the page / in view (ms)",
        `${reloadInPageMs ?? "never"} / ${reloadMs ?? "not within 60 s"}`,
      ],
      [
        "DOM nodes (CDP Nodes) opened / reloaded / after scroll",
        `${opened.domNodes} / ${reloaded.domNodes} / ${afterScroll.domNodes}`,
      ],
      [
        "elements opened / reloaded / after scroll",
        `${opened.elements} / ${reloaded.elements} / ${afterScroll.elements}`,
      ],
      [
        "command cards in the page, opened: all / succeeded / with changes",
        `${opened.cards} / ${opened.succeeded} / ${opened.changes}`,
      ],
      ["command cards in the page after the scroll", afterScroll.cards],
      ["output characters in the page (opened)", opened.outputChars],
      [
        "JS heap used after GC, MiB (opened / reloaded / after scroll)",
        `${opened.jsHeapUsedMiB} / ${reloaded.jsHeapUsedMiB} / ${afterScroll.jsHeapUsedMiB}`,
      ],
      [
        "scroll end -> start",
        `${result.scroll.ms} ms, ${result.scroll.frames} frames, ${scroll.reachedStart ? "reached the start" : "did NOT reach the start"}`,
      ],
      [
        "scroll frame p50 / p95 / max (ms)",
        `${result.scroll.frameP50Ms} / ${result.scroll.frameP95Ms} / ${result.scroll.frameMaxMs}`,
      ],
      ["scroll frames over 50 ms", result.scroll.framesOver50Ms],
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    console.log(`\nUI long chat (load average before: ${loadBefore}; after: ${loadavg()})\n`);
    for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
    console.log("");
    for (const t of targets) console.log(`${t.met ? "MET   " : "MISSED"} ${t.target}: ${t.measured}`);
    mkdirSync(dirname(options.out), { recursive: true });
    writeFileSync(options.out, `${JSON.stringify({ ...result, targets }, null, 2)}\n`);
    console.log(`\nJSON: ${options.out}`);
  } finally {
    await browser?.close().catch(() => {});
    if (host) await stopDeskServer(host.child).catch(() => {});
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/** The page's size now: DOM (CDP's node count, text nodes included), elements, cards, heap after a GC. */
async function measurePage(page: Page, cdp: CDPSession) {
  await cdp.send("HeapProfiler.collectGarbage");
  const m = await metrics(cdp);
  const counted = (await page.evaluate(`(${countNodes})()`)) as {
    elements: number;
    cards: number;
    entries: number;
    succeeded: number;
    changes: number;
    outputChars: number;
  };
  return {
    domNodes: m.Nodes ?? 0,
    ...counted,
    jsHeapUsedMiB: mib(m.JSHeapUsedSize),
    jsHeapTotalMiB: mib(m.JSHeapTotalSize),
  };
}
