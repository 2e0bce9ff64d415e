import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "../harness/chromium.ts";
import * as ui from "../harness/desk-page.ts";
import { loadavg, machineFacts } from "../harness/machine-facts.ts";
import { markdownAnswer } from "../harness/markdown-answer.ts";
import { startModelDesk } from "../harness/model-desk.ts";
import { startOpenAiServer } from "../harness/openai-server.ts";

/*
 * The Markdown phase of the UI bench: a 40 KB answer with ten code blocks streamed by a loopback model
 * server at 200 tokens a second (800 characters) through Pi's real provider path into the page in Chromium,
 * every frame's time recorded with the answer's length at that frame, so the frames of its last quarter
 * can be set beside its first (a reader that re-parses the whole message slows as it grows). Runs the
 * build in the working directory's out/ (run it from another checkout's folder for a before-and-after).
 *
 *   npm run build && node bench/ui-markdown.bench.ts [--chars 40000] [--cps 800] [--out file.json]
 *     [--cpu-prof page.cpuprofile]
 */
const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    chars: { type: "string", default: "40000" },
    cps: { type: "string", default: "800" },
    out: { type: "string", default: join(here, "results", "ui-markdown.json") },
    headed: { type: "boolean", default: false },
    // The page's JavaScript profile while the answer streams (read it with bench/cpu-profile-top.ts).
    "cpu-prof": { type: "string" },
  },
});
const chars = Number(args.chars);
const cps = Number(args.cps);

const round = (n: number) => Math.round(n * 10) / 10;
const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
};

/** Records each frame's time and the streaming answer's length, and the page's long tasks. */
const FRAME_PROBE = `(() => {
  const frames = (window.__frames = []);
  const longTasks = (window.__longTasks = []);
  new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push(e.duration); })
    .observe({ type: "longtask", buffered: true });
  const tick = (t) => {
    const message = document.querySelector('[data-testid="assistant-message"][data-streaming="true"] .markdown');
    frames.push([t, message ? message.textContent.length : -1]);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

const answer = markdownAnswer(chars);
const model = await startOpenAiServer(() => ({ text: answer, charsPerSecond: cps }));
const desk = await startModelDesk(model.baseUrl);
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: chromiumArgs,
  headless: !args.headed,
});
const loadBefore = loadavg();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(FRAME_PROBE);
  await ui.openDesk(page, desk.server);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  if (args["cpu-prof"]) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.start");
  }
  await ui.send(page, "Explain the change");
  const message = page.getByTestId("assistant-message");
  await ui.expect(message).toHaveAttribute("data-streaming", "true", { timeout: 60_000 });
  // The page's main-thread time (script, style, layout) as the answer grows: CPU spent by the page, less
  // sensitive than frame times to other work on a shared machine.
  const samples: { length: number; scriptMs: number; taskMs: number }[] = [];
  const deadline = Date.now() + (chars / cps) * 3000 + 60_000;
  for (;;) {
    const { metrics } = await cdp.send("Performance.getMetrics");
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    const state = (await page.evaluate(`(() => {
      const m = document.querySelector('[data-testid="assistant-message"]');
      return { streaming: m?.getAttribute("data-streaming") === "true", length: m?.querySelector(".markdown")?.textContent.length ?? 0 };
    })()`)) as { streaming: boolean; length: number };
    samples.push({
      length: state.length,
      scriptMs: metric("ScriptDuration"),
      taskMs: metric("TaskDuration"),
    });
    if (!state.streaming) break;
    if (Date.now() > deadline) throw new Error("The answer did not finish streaming in time.");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (args["cpu-prof"]) {
    const { profile } = await cdp.send("Profiler.stop");
    writeFileSync(args["cpu-prof"], JSON.stringify(profile));
  }
  const frames = (await page.evaluate("window.__frames")) as [number, number][];
  const longTasks = (await page.evaluate("window.__longTasks")) as number[];
  // Frames while the answer streamed, each with the interval since the one before.
  const streaming: { ms: number; length: number }[] = [];
  for (let i = 1; i < frames.length; i++) {
    const [t, length] = frames[i] as [number, number];
    const [before] = frames[i - 1] as [number, number];
    if (length >= 0) streaming.push({ ms: t - before, length });
  }
  const quarter = (q: number) =>
    streaming.filter((f) => f.length >= (q * chars) / 4 && f.length < ((q + 1) * chars) / 4).map((f) => f.ms);
  const quarters = [0, 1, 2, 3].map((q) => ({
    frames: quarter(q).length,
    p50Ms: round(quantile(quarter(q), 0.5)),
    p95Ms: round(quantile(quarter(q), 0.95)),
  }));
  const all = streaming.map((f) => f.ms);
  // Main-thread milliseconds per 1,000 characters streamed, in each quarter of the answer.
  const drawnLength = samples.at(-1)?.length ?? chars;
  const perThousand = [0, 1, 2, 3].map((q) => {
    const inQuarter = samples.filter(
      (s) => s.length >= (q * drawnLength) / 4 && s.length <= ((q + 1) * drawnLength) / 4,
    );
    const first = inQuarter[0];
    const last = inQuarter.at(-1);
    if (!first || !last || last.length === first.length) return null;
    const per = (ms: number) => round((ms / (last.length - first.length)) * 1000);
    return { scriptMs: per(last.scriptMs - first.scriptMs), taskMs: per(last.taskMs - first.taskMs) };
  });
  const result = {
    startedAt: new Date().toISOString(),
    machine: machineFacts({ loadavgBefore: loadBefore, chromium: browser.version(), headless: !args.headed }),
    options: { chars, charsPerSecond: cps },
    cwd: process.cwd(),
    frames: all.length,
    frameP50Ms: round(quantile(all, 0.5)),
    frameP95Ms: round(quantile(all, 0.95)),
    frameMaxMs: round(Math.max(0, ...all)),
    framesOver50Ms: all.filter((ms) => ms > 50).length,
    quarters,
    longTasks: { count: longTasks.length, totalMs: round(longTasks.reduce((s, d) => s + d, 0)) },
    mainThreadPerThousandChars: perThousand,
  };
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`streamed ${chars} characters at ${cps}/s from ${process.cwd()}/out`);
  console.log(
    `frames ${result.frames}: p50 ${result.frameP50Ms} ms, p95 ${result.frameP95Ms} ms, max ${result.frameMaxMs} ms, over 50 ms ${result.framesOver50Ms}`,
  );
  for (const [q, r] of quarters.entries())
    console.log(`quarter ${q + 1}: ${r.frames} frames, p50 ${r.p50Ms} ms, p95 ${r.p95Ms} ms`);
  console.log(`long tasks: ${result.longTasks.count}, ${result.longTasks.totalMs} ms in all`);
  for (const [q, r] of perThousand.entries()) {
    console.log(
      `quarter ${q + 1}: main thread ${r?.taskMs} ms (script ${r?.scriptMs} ms) per 1,000 characters`,
    );
  }
  console.log(`JSON: ${args.out}`);
} finally {
  await browser.close();
  await desk.cleanup();
  await model.close();
}
