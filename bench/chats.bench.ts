/**
 * `npm run bench -- --phases chats` (or `node bench/chats.bench.ts` after `npm run build`): many chats at
 * once against one chat, through the real browser host (`out/main/serve.js`, scripted model) over its
 * WebSocket, as the page speaks it. Three parts, in one run (see bench/README.md):
 *
 * 1. Throughput: four chats each running 50 rule-allowed commands at once, against one chat running the same
 *    200 in a row; a fresh host per arm and round, the arms alternating, each warmed up by a chat of its own
 *    first. Wall time, and the host's CPU per command (its own utime + stime from /proc, not its commands').
 * 2. Request to card: with four chats streaming output (one of them shown in Chromium), a fifth chat's
 *    commands wait for the person one after another; the time from the host's `command-update` (as a socket
 *    client receives it) to the card in the page's tray (a MutationObserver), p50 and p95.
 * 3. Memory: the host's RSS with one chat open, then with ten more, each of which answered once; the growth
 *    per chat.
 */
import type { ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "../harness/chromium.ts";
import { type DeskServer, type Script, type ScriptBlock, startScriptedDesk } from "../harness/desk-server.ts";
import { connectDesk, type DeskSocket } from "../harness/desk-socket.ts";
import { loadavg } from "../harness/machine-facts.ts";
import type { HostEvent } from "../src/shared/host-events.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const { values: args } = parseArgs({
  allowNegative: true,
  options: {
    rounds: { type: "string", default: "3" },
    commands: { type: "string", default: "200" },
    asks: { type: "string", default: "40" },
    "idle-chats": { type: "string", default: "10" },
    build: { type: "boolean", default: true },
    parts: { type: "string", default: "throughput,card,memory" },
    out: { type: "string", default: join(here, "results", "chats.json") },
  },
});
const rounds = Number(args.rounds);
const total = Number(args.commands);
const perChat = total / 4;
const asks = Number(args.asks);
const idleChats = Number(args["idle-chats"]);
const parts = new Set(args.parts.split(","));
if (!Number.isInteger(perChat)) throw new Error(`--commands must be a multiple of 4 (got ${total}).`);

const call = (id: string, command: string): ScriptBlock => ({
  type: "toolCall",
  id,
  name: "run_command",
  arguments: { command },
});
const turns = (prefix: string, count: number, command: (i: number) => string): ScriptBlock[][] => [
  ...Array.from({ length: count }, (_, i) => [call(`${prefix}-${i}`, command(i))]),
  [{ type: "text", text: `done ${prefix}` }],
];

/** Every chat's turns, by the start of its first message. */
const script: Script = {
  warm: turns("warm", 20, (i) => `echo warm ${i}`),
  one: turns("one", total, (i) => `echo one ${i}`),
  ...Object.fromEntries(
    [0, 1, 2, 3].map((k) => [`four-${k}`, turns(`four-${k}`, perChat, (i) => `echo four ${k} ${i}`)]),
  ),
  ...Object.fromEntries(
    [0, 1, 2, 3].map((k) => [`stream-${k}`, turns(`stream-${k}`, 1, () => "./stream.sh 120")]),
  ),
  ask: [
    ...Array.from({ length: asks }, (_, i) => [
      { type: "delay", ms: 150 } as ScriptBlock,
      call(`ask-${i}`, `touch asked-${i}`),
    ]),
    [{ type: "text", text: "done ask" }],
  ],
  idle: [[{ type: "text", text: "done idle" }]],
};

/** Prints 100 lines every tenth of a second for the seconds asked: ten processes a second, not a thousand. */
const STREAM_SH = `#!/bin/sh
s=0
while [ "$s" -lt $(($1 * 10)) ]; do seq $((s * 100)) $((s * 100 + 99)); s=$((s + 1)); sleep 0.1; done
`;

if (args.build)
  execFileSync(join(repo, "node_modules", ".bin", "electron-vite"), ["build"], {
    cwd: repo,
    stdio: "ignore",
  });
process.chdir(repo);
const loadBefore = loadavg();
const clockTicks = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());

/** A host started for one arm, its socket, and what its chats said. */
interface Host {
  server: DeskServer;
  child: ChildProcess;
  desk: DeskSocket;
  workspaceId: string;
  firstChat: string;
  /** Chats whose last turn said "done …", by id. */
  done: Set<string>;
  /** Commands that succeeded, by chat. */
  succeeded: Map<string, Set<string>>;
  /** Chats whose commands printed something. */
  streaming: Set<string>;
  events: ((event: HostEvent) => void)[];
  stop: () => Promise<void>;
}

async function startHost(): Promise<Host> {
  const { server, child, cleanup } = await startScriptedDesk(script);
  writeFileSync(join(server.workspace, "stream.sh"), STREAM_SH);
  chmodSync(join(server.workspace, "stream.sh"), 0o755);
  const desk = await connectDesk(server);
  const state = await desk.call("getState");
  const host: Host = {
    server,
    child,
    desk,
    workspaceId: state.workspaces[0]?.id as string,
    firstChat: state.chatId as string,
    done: new Set(),
    succeeded: new Map(),
    streaming: new Set(),
    events: [],
    stop: async () => {
      desk.close();
      await cleanup();
    },
  };
  desk.onEvent((event) => {
    if (
      event.type === "chat-summary" &&
      event.summary.activity === "idle" &&
      event.summary.lastLine.startsWith("done ")
    ) {
      host.done.add(event.summary.id);
    }
    if (event.type === "command-update" && event.command.phase === "succeeded") {
      const ids = host.succeeded.get(event.chatId) ?? new Set();
      ids.add(event.command.id);
      host.succeeded.set(event.chatId, ids);
    }
    if (event.type === "command-output") host.streaming.add(event.chatId);
    for (const listener of host.events) listener(event);
  });
  for (const pattern of ["echo", "./stream.sh"]) {
    await desk.call("addRule", {
      chatId: host.firstChat,
      effect: "allow",
      match: "prefix",
      pattern,
      scope: "workspace",
    });
  }
  return host;
}

async function newChat(host: Host): Promise<string> {
  return (await host.desk.call("newSession", { workspaceId: host.workspaceId })).id;
}

async function untilDone(host: Host, chats: string[], timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!chats.every((chat) => host.done.has(chat))) {
    if (Date.now() > until) throw new Error(`Chats did not finish within ${timeoutMs / 1000} s.`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The host process's own CPU (user + system, all its threads, not its children's), in ms. */
function hostCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // After "pid (comm) ", utime and stime are the 12th and 13th fields.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1]) / 1024;
}

/** One arm: a fresh host, a warm-up chat, then `chats` chats prompted at once; wall and CPU of the measured part. */
async function runArm(arm: "one" | "four"): Promise<{ wallMs: number; cpuMsPerCommand: number }> {
  const host = await startHost();
  try {
    await host.desk.call("prompt", { chatId: host.firstChat, text: "warm" });
    await untilDone(host, [host.firstChat], 120_000);
    const names = arm === "one" ? ["one"] : ["four-0", "four-1", "four-2", "four-3"];
    const chats = [];
    for (const _ of names) chats.push(await newChat(host));
    const pid = host.child.pid as number;
    const cpuBefore = hostCpuMs(pid);
    const began = performance.now();
    await Promise.all(
      chats.map((chatId, i) => host.desk.call("prompt", { chatId, text: names[i] as string })),
    );
    await untilDone(host, chats, 600_000);
    const wallMs = performance.now() - began;
    const cpuMs = hostCpuMs(pid) - cpuBefore;
    const ran = chats.reduce((sum, chat) => sum + (host.succeeded.get(chat)?.size ?? 0), 0);
    if (ran !== total) throw new Error(`The ${arm} arm ran ${ran} of ${total} commands.`);
    return { wallMs, cpuMsPerCommand: cpuMs / total };
  } finally {
    await host.stop();
  }
}

/** Installed in the page before its scripts: when each asked command's card first appears in the tray. */
const CARD_PROBE = `
window.cardSeen = {};
new MutationObserver(() => {
  for (const card of document.querySelectorAll('[data-testid="tray-item"][data-command-id^="ask-"]')) {
    window.cardSeen[card.getAttribute("data-command-id")] ??= Date.now();
  }
}).observe(document, { childList: true, subtree: true });
`;

/** Request to card, with four chats streaming and one shown in the page. */
async function runRequestToCard(): Promise<number[]> {
  const host = await startHost();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
  try {
    const asker = await newChat(host);
    const streams = [];
    for (let k = 0; k < 4; k++) streams.push(await newChat(host));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ content: CARD_PROBE });
    await page.goto(host.server.url);
    await page.getByTestId("connection-status").and(page.locator('[data-status="connected"]')).waitFor();
    await Promise.all(streams.map((chatId, k) => host.desk.call("prompt", { chatId, text: `stream-${k}` })));
    // Streaming in every chat before the first request.
    while (streams.some((chat) => !host.streaming.has(chat))) await new Promise((r) => setTimeout(r, 50));
    const requested = new Map<string, number>();
    host.events.push((event) => {
      if (event.type !== "command-update" || event.chatId !== asker) return;
      const { id, approvalId } = event.command;
      if (!approvalId || requested.has(id)) return;
      requested.set(id, Date.now());
      void (async () => {
        while (!(await page.evaluate(`${JSON.stringify(id)} in window.cardSeen`))) {
          await new Promise((r) => setTimeout(r, 25));
        }
        await host.desk.call("decide", { approvalId, decision: { kind: "approve" } });
      })();
    });
    await host.desk.call("prompt", { chatId: asker, text: "ask" });
    await untilDone(host, [asker], 300_000);
    const seen = (await page.evaluate("window.cardSeen")) as Record<string, number>;
    for (const [k, chatId] of streams.entries()) {
      await host.desk.call("cancelCommand", { chatId, commandId: `stream-${k}-0` }).catch(() => {});
    }
    return [...requested].map(([id, at]) => (seen[id] ?? Number.NaN) - at);
  } finally {
    await browser.close();
    await host.stop();
  }
}

/** RSS with one chat, then with `idleChats` more that each answered once. */
async function runIdleMemory(): Promise<{ baseMiB: number; perChatMiB: number }> {
  const host = await startHost();
  try {
    const pid = host.child.pid as number;
    await host.desk.call("prompt", { chatId: host.firstChat, text: "idle" });
    await untilDone(host, [host.firstChat], 60_000);
    await new Promise((r) => setTimeout(r, 3000));
    const baseMiB = rssMiB(pid);
    const chats = [];
    for (let i = 0; i < idleChats; i++) {
      const chatId = await newChat(host);
      await host.desk.call("prompt", { chatId, text: `idle ${i}` });
      chats.push(chatId);
    }
    await untilDone(host, chats, 120_000);
    await new Promise((r) => setTimeout(r, 3000));
    return { baseMiB, perChatMiB: (rssMiB(pid) - baseMiB) / idleChats };
  } finally {
    await host.stop();
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)
  ] as number;

const met = (ok: boolean) => (ok ? "MET" : "MISSED");
const summary: Record<string, unknown> = {};
const arms: Record<"one" | "four", { wallMs: number; cpuMsPerCommand: number }[]> = { one: [], four: [] };
if (parts.has("throughput")) {
  for (let round = 0; round < rounds; round++) {
    const order: ("one" | "four")[] = round % 2 === 0 ? ["one", "four"] : ["four", "one"];
    for (const arm of order) {
      const result = await runArm(arm);
      arms[arm].push(result);
      console.log(
        `round ${round + 1} ${arm.padEnd(4)}: wall ${(result.wallMs / 1000).toFixed(2)} s, host CPU ${result.cpuMsPerCommand.toFixed(2)} ms/command (load ${loadavg().split(" ")[0]})`,
      );
    }
  }
  const wall = { one: median(arms.one.map((r) => r.wallMs)), four: median(arms.four.map((r) => r.wallMs)) };
  const cpu = {
    one: median(arms.one.map((r) => r.cpuMsPerCommand)),
    four: median(arms.four.map((r) => r.cpuMsPerCommand)),
  };
  const ratios = arms.four.map(
    (four, i) => four.cpuMsPerCommand / (arms.one[i]?.cpuMsPerCommand ?? Number.NaN),
  );
  const ratio = median(ratios);
  Object.assign(summary, { wallMs: wall, cpuMsPerCommand: cpu, cpuRatioFourToOne: ratio, cpuRatios: ratios });
  console.log(`four chats x ${perChat} at once vs one chat x ${total} in a row (medians of ${rounds} rounds):
  wall             one ${(wall.one / 1000).toFixed(2)} s, four ${(wall.four / 1000).toFixed(2)} s (${(wall.four / wall.one).toFixed(2)}x)
  host CPU/command one ${cpu.one.toFixed(2)} ms, four ${cpu.four.toFixed(2)} ms: ${ratio.toFixed(2)}x (rounds ${ratios.map((r) => r.toFixed(2)).join(", ")})  target <= 1.1x ${met(ratio <= 1.1)}`);
}
if (parts.has("card")) {
  const latencies = await runRequestToCard();
  const figures = {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: Math.max(...latencies),
  };
  Object.assign(summary, { requestToCardMs: figures, latencies });
  console.log(
    `request to card, four chats streaming (${latencies.length} requests): p50 ${figures.p50} ms, p95 ${figures.p95} ms, max ${figures.max} ms  target p95 < 100 ms ${met(figures.p95 < 100)}`,
  );
}
if (parts.has("memory")) {
  const memory = await runIdleMemory();
  summary.memory = memory;
  console.log(
    `memory: ${memory.baseMiB.toFixed(1)} MiB RSS with one chat, +${memory.perChatMiB.toFixed(2)} MiB per idle chat (${idleChats} more)  target < 25 MiB ${met(memory.perChatMiB < 25)}`,
  );
}
console.log(`load ${loadBefore} -> ${loadavg()}`);
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(
  args.out,
  `${JSON.stringify({ rounds, commands: total, asks, idleChats, summary, arms, load: { before: loadBefore, after: loadavg() } }, null, 2)}\n`,
);
console.log(`JSON: ${args.out}`);
