import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type Browser, type CDPSession, chromium, type Page } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "../harness/chromium.ts";
import * as ui from "../harness/desk-page.ts";
import * as support from "../harness/desk-server.ts";
import { loadavg, machineFacts } from "../harness/machine-facts.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    "cancel-runs": { type: "string", default: "3" },
    "cancel-after": { type: "string", default: "3" },
    headed: { type: "boolean", default: false },
    trace: { type: "string" },
    "cpu-prof": { type: "string" },
    "host-cpu-prof": { type: "string" },
    out: { type: "string" },
    // `--phase long-chat`: the long reopened chat (bench/ui-long-chat.ts) instead of the flood.
    phase: { type: "string", default: "flood" },
    commands: { type: "string", default: "500" },
    lines: { type: "string", default: "2000" },
    "scroll-step": { type: "string", default: "400" },
  },
});
if (args.phase === "long-chat") {
  const { runLongChat } = await import("./ui-long-chat.ts");
  await runLongChat({
    commands: Number(args.commands),
    lines: Number(args.lines),
    scrollStep: Number(args["scroll-step"]),
    headed: args.headed,
    out: args.out ?? join(here, "results", "ui-long-chat.json"),
  });
  process.exit(0);
}
if (args.phase !== "flood")
  throw new Error(`Unknown --phase ${args.phase}: use flood (the default) or long-chat.`);
const floodSeconds = Number(args.seconds);
const cancelRuns = Number(args["cancel-runs"]);
const cancelAfterMs = Number(args["cancel-after"]) * 1000;

/** What the flood prints, line after line; `cat` passes on whatever `yes` wrote, as it arrives. */
const LINE = "the quick brown fox jumps over the lazy dog";
const flood = (seconds: number) => `timeout ${seconds} yes '${LINE}' | stdbuf -oL cat`;
/** The run_command timeout: well above the flood, so the flood ends on its own (or by Cancel). */
const COMMAND_TIMEOUT_S = 120;

/** The page probe (bench/ui-flood-probe.js), installed before the page's own scripts. */
const PAGE_PROBE = { path: join(here, "ui-flood-probe.js") };

/** What the probe holds (the parts read back here). */
interface Probe {
  outputs: { t: number; id: string; chars: number; totalBytes: number | null; totalLines: number | null }[];
  updates: {
    t: number;
    id: string;
    phase: string;
    durationMs: number | null;
    totalBytes: number | null;
    totalLines: number | null;
  }[];
  frames: number[];
  longTasks: { start: number; duration: number }[];
  loafs: {
    start: number;
    duration: number;
    blocking: number;
    render: number;
    styleLayout: number;
    scripts: { invoker: string; source: string; duration: number }[];
  }[];
  samples: ({ t: number } & OutputSize)[];
  messages: number;
  messageChars: number;
  recordingFrom: number;
  recordingTo: number;
  cancel: {
    id: string;
    clickAt: number | null;
    cancellingAt: number | null;
    eventAt: number | null;
    cancelledAt: number | null;
  } | null;
}

/** One Cancel, timed in the page (performance.now()): click, first visible change, host event, final state. */
interface CancelTiming {
  run: number;
  clickToCancellingMs: number | null;
  clickToHostEventMs: number | null;
  hostEventToDomMs: number | null;
  clickToCancelledMs: number | null;
  /** The longest animation frame (long-animation-frame entry, >= 50 ms) from click to the card's change. */
  longestFrameMs: number;
  longestFrame: Probe["loafs"][number] | null;
}

interface OutputSize {
  outputElements: number | null;
  outputTextChars: number | null;
  outputLines: number | null;
  cardElements: number | null;
  documentElements: number;
}

const probe = (page: Page): Promise<Probe> =>
  page.evaluate("(({ measureOutput, start, stop, armCancel, ...data }) => data)(window.__flood)");

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const quantile = (values: number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};
const maxOf = (values: number[]) => (values.length ? Math.max(...values) : 0);

/** CPU time (ms) of one process from /proc/<pid>/stat, or null when it cannot be read. */
function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/** The whole machine's busy and total CPU time (ms, all cores) from /proc/stat. */
function machineCpuMs(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: ((total - idle) * 1000) / CLOCK_TICKS, total: (total * 1000) / CLOCK_TICKS };
}

/** Chrome's own counters (CDP Performance.getMetrics), in seconds for the *Duration ones. */
async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send("Performance.getMetrics");
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

process.chdir(repo);
const startedAt = new Date().toISOString();
const loadBefore = loadavg();
/** A quiet command cancelled the same way: what Cancel costs without a flood, to tell the two apart. */
const QUIET = "sleep 271";
const cancelTurns = (prefix: string, command: string) =>
  Array.from({ length: cancelRuns }, (_, i) => [
    [ui.runCommand(`${prefix}-${i + 1}`, command, COMMAND_TIMEOUT_S)],
    [ui.say(`Cancelled ${prefix} ${i + 1}.`)],
  ]).flat();
const cancelScript = [...cancelTurns("cancel", flood(60)), ...cancelTurns("quiet", QUIET)];
const script = [[ui.runCommand("flood-1", flood(floodSeconds), COMMAND_TIMEOUT_S)], [ui.say("Flooded.")]];

let browser: Browser | undefined;
let cleanup: (() => Promise<void>) | undefined;
let interrupted = false;
let closed: Promise<void> | undefined;
/** Closes Chromium and stops the host (which ends its commands); once, however often it is called. */
const closeAll = () =>
  (closed ??= (async () => {
    await browser?.close().catch(() => {});
    await cleanup?.().catch(() => {});
  })());
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = true;
    void closeAll().finally(() => process.exit(130));
  });
}

try {
  // The host's own profile (the whole run; Node writes it when the host exits on SIGTERM).
  const hostProfile = args["host-cpu-prof"];
  const started = await support.startScriptedDesk(
    [...script, ...cancelScript],
    hostProfile
      ? { env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${resolve(hostProfile)} --cpu-prof-interval=200` } }
      : {},
  );
  cleanup = started.cleanup;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: !args.headed,
    // Ours close the browser and then the host; Playwright's own would exit before the host is stopped.
    handleSIGINT: false,
    handleSIGTERM: false,
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(PAGE_PROBE);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  await ui.openDesk(page, started.server);
  const idle = () => ui.expect(page.getByTestId("stop-button")).toHaveCount(0);

  // 1. The flood: events, frames, long tasks, DOM size.
  await ui.send(page, "Flood the output");
  const pending = await ui.expectPending(page, "flood-1");
  const before = await metrics(cdp);
  const hostCpuBefore = processCpuMs(started.child.pid);
  const machineBefore = machineCpuMs();
  if (args.trace)
    await browser.startTracing(page, {
      path: args.trace,
      categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink"],
    });
  if (args["cpu-prof"]) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  await page.evaluate("window.__flood.start('flood-1')");
  const wallFrom = performance.now();
  await pending.getByTestId("tray-approve-button").click();
  const floodCard = ui.card(page, "flood-1");
  await ui.expect(floodCard).toHaveAttribute("data-status", "running");
  await ui
    .expect(floodCard)
    .not.toHaveAttribute("data-status", "running", { timeout: (floodSeconds + 60) * 1000 });
  await page.waitForTimeout(300); // the last frames after the end
  await page.evaluate("window.__flood.stop()");
  const wall = performance.now() - wallFrom;
  const after = await metrics(cdp);
  const hostCpuAfter = processCpuMs(started.child.pid);
  const machineAfter = machineCpuMs();
  if (args["cpu-prof"]) {
    const { profile } = await cdp.send("Profiler.stop");
    writeFileSync(args["cpu-prof"], JSON.stringify(profile));
  }
  if (args.trace) await browser.stopTracing();
  const floodStatus = await floodCard.getAttribute("data-status");
  const endSize = (await page.evaluate("window.__flood.measureOutput('flood-1')")) as OutputSize;
  const p1 = await probe(page);
  await ui.expect(page.getByTestId("assistant-message").last()).toContainText("Flooded.");
  await idle();

  const events = p1.outputs.filter((e) => e.id === "flood-1");
  const running = p1.updates.find((u) => u.id === "flood-1" && u.phase === "running");
  const ended = p1.updates.find((u) => u.id === "flood-1" && u.phase !== "running" && u.phase !== "pending");
  const from = running?.t ?? events[0]?.t ?? p1.recordingFrom;
  const to = ended?.t ?? events.at(-1)?.t ?? p1.recordingTo;
  const span = (events.at(-1)?.t ?? 0) - (events[0]?.t ?? 0);
  const perSecond: number[] = [];
  for (const e of events) {
    const second = Math.floor((e.t - from) / 1000);
    perSecond[second] = (perSecond[second] ?? 0) + 1;
  }
  // Busiest one-second window, sliding over the events.
  let busiest = 0;
  for (let i = 0, j = 0; i < events.length; i++) {
    while ((events[i]?.t ?? 0) - (events[j]?.t ?? 0) >= 1000) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  const frames = p1.frames.filter((t) => t >= from && t <= to);
  const intervals = frames.slice(1).map((t, i) => t - (frames[i] ?? t));
  const longTasks = p1.longTasks.filter((e) => e.start + e.duration >= from && e.start <= to);
  const loafs = p1.loafs.filter((e) => e.start + e.duration >= from && e.start <= to);
  const worstLoaf = loafs.reduce<(typeof loafs)[number] | undefined>(
    (worst, e) => (worst && worst.duration >= e.duration ? worst : e),
    undefined,
  );
  const delta = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
  const floodResult = {
    command: flood(floodSeconds),
    status: floodStatus,
    runningMs: round(to - from),
    printedBytes: ended?.totalBytes ?? events.at(-1)?.totalBytes ?? null,
    printedLines: ended?.totalLines ?? events.at(-1)?.totalLines ?? null,
    outputEvents: events.length,
    outputEventsPerSecond: round(span > 0 ? ((events.length - 1) * 1000) / span : 0),
    outputEventsBusiestSecond: busiest,
    outputEventsPerWholeSecond: perSecond.map((n) => n ?? 0),
    outputEventCharsMean: round(events.reduce((s, e) => s + e.chars, 0) / Math.max(1, events.length), 0),
    hostMessages: p1.messages,
    frames: frames.length,
    frameIntervalP50Ms: round(quantile(intervals, 0.5)),
    frameIntervalP95Ms: round(quantile(intervals, 0.95)),
    frameIntervalMaxMs: round(maxOf(intervals)),
    framesOver50Ms: intervals.filter((d) => d > 50).length,
    longTasks: longTasks.length,
    longestTaskMs: round(maxOf(longTasks.map((e) => e.duration))),
    longTasksTotalMs: round(longTasks.reduce((s, e) => s + e.duration, 0)),
    longAnimationFrames: loafs.length,
    longestAnimationFrameMs: round(worstLoaf?.duration ?? 0),
    worstAnimationFrame: worstLoaf ?? null,
    // Wall time in tasks against CPU time of the page's main thread: far apart means the thread was
    // waiting for a core (a busy machine), not working.
    mainThreadBusyPercent: round((100 * delta("TaskDuration") * 1000) / wall),
    mainThreadCpuPercent: round((100 * delta("ThreadTime") * 1000) / wall),
    rendererProcessCpuPercent: round((100 * delta("ProcessTime") * 1000) / wall),
    hostCpuPercent:
      hostCpuBefore === null || hostCpuAfter === null
        ? null
        : round((100 * (hostCpuAfter - hostCpuBefore)) / wall),
    machineCpuBusyPercent: round(
      (100 * (machineAfter.busy - machineBefore.busy)) /
        Math.max(1, machineAfter.total - machineBefore.total),
    ),
    scriptMs: round(delta("ScriptDuration") * 1000),
    layoutMs: round(delta("LayoutDuration") * 1000),
    styleMs: round(delta("RecalcStyleDuration") * 1000),
    layouts: delta("LayoutCount"),
    jsHeapUsedMiB: round((after.JSHeapUsedSize ?? 0) / 2 ** 20),
    outputAtEnd: endSize,
    outputMaxWhileRunning: {
      outputElements: maxOf(p1.samples.map((s) => s.outputElements ?? 0)),
      outputTextChars: maxOf(p1.samples.map((s) => s.outputTextChars ?? 0)),
      documentElements: maxOf(p1.samples.map((s) => s.documentElements)),
    },
  };

  // 2. Cancel: flood again, cancel after ~3 s, time click -> card shows "cancelled"; then the same with
  // a quiet command, as a control.
  const cancelSeries = async (prefix: string, command: string) => {
    const runs: CancelTiming[] = [];
    for (let i = 1; i <= cancelRuns; i++) {
      const id = `${prefix}-${i}`;
      await ui.send(page, `Run it (${id})`);
      await (await ui.expectPending(page, id)).getByTestId("tray-approve-button").click();
      const cancelCard = ui.card(page, id);
      await ui.expect(cancelCard).toHaveAttribute("data-status", "running");
      await page.waitForTimeout(cancelAfterMs);
      await page.evaluate(`window.__flood.armCancel(${JSON.stringify(id)})`);
      await cancelCard.getByTestId("cancel-button").click();
      await ui.expect(cancelCard).toHaveAttribute("data-status", "cancelled");
      await page.waitForTimeout(300); // the probe's long-frame entries for the cancel come in after it
      const p = await probe(page);
      const c = p.cancel;
      const since = (t: number | null | undefined, from: number | null | undefined) =>
        t == null || from == null ? null : round(t - from);
      // The longest frame between the click and the card showing it: where the page's own share went.
      const clickAt = c?.clickAt ?? 0;
      const doneAt = c?.cancelledAt ?? Number.POSITIVE_INFINITY;
      const worst = p.loafs
        .filter((e) => e.start + e.duration >= clickAt && e.start <= doneAt)
        .reduce<Probe["loafs"][number] | undefined>(
          (w, e) => (w && w.duration >= e.duration ? w : e),
          undefined,
        );
      runs.push({
        run: i,
        clickToCancellingMs: since(c?.cancellingAt, c?.clickAt),
        clickToHostEventMs: since(c?.eventAt, c?.clickAt),
        hostEventToDomMs: since(c?.cancelledAt, c?.eventAt),
        clickToCancelledMs: since(c?.cancelledAt, c?.clickAt),
        longestFrameMs: worst ? round(worst.duration) : 0,
        longestFrame: worst ?? null,
      });
      await ui
        .expect(page.getByTestId("assistant-message").last())
        .toContainText(`Cancelled ${prefix} ${i}.`);
      await idle();
    }
    const total = runs.map((c) => c.clickToCancelledMs).filter((v): v is number => v !== null);
    return {
      command,
      cancelAfterMs,
      runs,
      complete: total.length === runs.length,
      clickToCancelledMedianMs: round(quantile(total, 0.5)),
      clickToCancelledMaxMs: round(maxOf(total)),
    };
  };
  const cancelResult = await cancelSeries("cancel", flood(60));
  const quietResult = await cancelSeries("quiet", QUIET);
  const cancels = cancelResult.runs;
  const quiet = quietResult.runs;

  const targets = [
    {
      target: "output events per second per command <= ~20",
      measured: `${floodResult.outputEventsPerSecond}/s mean, ${busiest} in the busiest second`,
      met: busiest <= 20,
    },
    {
      target: "p95 frame interval < 50 ms",
      measured: `${floodResult.frameIntervalP95Ms} ms (max ${floodResult.frameIntervalMaxMs} ms)`,
      met: floodResult.frameIntervalP95Ms < 50,
    },
    {
      target: "output DOM bounded",
      measured:
        `${endSize.outputElements} elements, ${endSize.outputTextChars} chars, ${endSize.outputLines} lines ` +
        `after ${floodResult.printedLines} lines printed; max while running ` +
        `${floodResult.outputMaxWhileRunning.outputElements} elements`,
      met:
        endSize.outputElements !== null &&
        endSize.outputElements < 100 &&
        (endSize.outputLines ?? Number.POSITIVE_INFINITY) <= 500 &&
        floodResult.outputMaxWhileRunning.outputElements < 100,
    },
    {
      target: "Cancel reflected in < 200 ms",
      measured: `median ${cancelResult.clickToCancelledMedianMs} ms, max ${cancelResult.clickToCancelledMaxMs} ms`,
      met: cancelResult.complete && cancelResult.clickToCancelledMaxMs < 200,
    },
  ];

  const rows: [string, string | number | null][] = [
    ["flood command", floodResult.command],
    ["ended as", `${floodResult.status} after ${floodResult.runningMs} ms running`],
    ["printed", `${floodResult.printedBytes} bytes, ${floodResult.printedLines} lines`],
    ["output events (count)", floodResult.outputEvents],
    ["output events / s (mean)", floodResult.outputEventsPerSecond],
    ["output events, busiest 1 s", floodResult.outputEventsBusiestSecond],
    ["output event size (chars, mean)", floodResult.outputEventCharsMean],
    ["frames during flood", floodResult.frames],
    [
      "frame interval p50 / p95 / max (ms)",
      `${floodResult.frameIntervalP50Ms} / ${floodResult.frameIntervalP95Ms} / ${floodResult.frameIntervalMaxMs}`,
    ],
    ["frames over 50 ms", floodResult.framesOver50Ms],
    [
      "long tasks (count / longest / total ms)",
      `${floodResult.longTasks} / ${floodResult.longestTaskMs} / ${floodResult.longTasksTotalMs}`,
    ],
    ["longest animation frame (ms)", floodResult.longestAnimationFrameMs],
    [
      "page main thread: in tasks / on CPU (% of wall)",
      `${floodResult.mainThreadBusyPercent} / ${floodResult.mainThreadCpuPercent}`,
    ],
    [
      "CPU: renderer process / host process (% of a core)",
      `${floodResult.rendererProcessCpuPercent} / ${floodResult.hostCpuPercent}`,
    ],
    [`machine CPU busy (% of ${cpus().length} cores)`, floodResult.machineCpuBusyPercent],
    [
      "script / layout / style (ms)",
      `${floodResult.scriptMs} / ${floodResult.layoutMs} / ${floodResult.styleMs}`,
    ],
    [
      "output DOM at end (elements / chars / lines)",
      `${endSize.outputElements} / ${endSize.outputTextChars} / ${endSize.outputLines}`,
    ],
    ["document elements at end", endSize.documentElements],
    ["cancel: click -> 'Cancelling' (ms)", cancels.map((c) => c.clickToCancellingMs).join(", ")],
    ["cancel: click -> host event (ms)", cancels.map((c) => c.clickToHostEventMs).join(", ")],
    ["cancel: host event -> DOM (ms)", cancels.map((c) => c.hostEventToDomMs).join(", ")],
    ["cancel: click -> data-status=cancelled (ms)", cancels.map((c) => c.clickToCancelledMs).join(", ")],
    ["cancel: longest frame in between (ms)", cancels.map((c) => c.longestFrameMs).join(", ")],
    [`quiet (${QUIET}): click -> host event (ms)`, quiet.map((c) => c.clickToHostEventMs).join(", ")],
    [`quiet (${QUIET}): click -> cancelled (ms)`, quiet.map((c) => c.clickToCancelledMs).join(", ")],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`\nUI flood (load average before: ${loadBefore}; after: ${loadavg()})\n`);
  for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
  console.log("");
  for (const t of targets) console.log(`${t.met ? "MET   " : "MISSED"} ${t.target}: ${t.measured}`);

  const chromiumVersion = browser.version();
  const out = args.out ?? join(here, "results", "ui-flood.json");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify(
      {
        startedAt,
        machine: machineFacts({
          loadavgBefore: loadBefore,
          chromium: chromiumVersion,
          headless: !args.headed,
        }),
        options: { floodSeconds, cancelRuns, cancelAfterMs },
        flood: floodResult,
        cancel: cancelResult,
        cancelQuiet: quietResult,
        targets,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nJSON: ${out}`);
} catch (error) {
  // Interrupted: the closing browser fails whatever was waiting on it; that is not worth a stack trace.
  if (!interrupted) throw error;
} finally {
  await closeAll();
}
