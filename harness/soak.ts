import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { AuditEntry } from "../src/shared/rules";
import { chatCalls } from "./chat-calls.ts";
import { type Script, type ScriptBlock, startScriptedDesk } from "./desk-server.ts";
import { connectDesk, type DeskSocket, socketTarget } from "./desk-socket.ts";
import { planSoak, SOAK_BINARIES, type SoakCommand, type SoakKind, seededRandom } from "./soak-plan.ts";

/** How a soak runs. */
export interface SoakOptions {
  /** Commands in all. */
  commands: number;
  /** Commands per model turn: they run at the same time. */
  parallel: number;
  /** Commands per prompt; each prompt after the first starts a new session, as a person would. */
  perBatch: number;
  /** Seed of the plan and of the cancel delays. */
  seed: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** The host process after a batch. */
export interface SoakSample {
  afterCommands: number;
  rssMiB: number;
  fds: number;
}

/** What a soak found. Everything under "problems" must be empty for a clean run. */
export interface SoakReport {
  commands: number;
  seed: number;
  durationSeconds: number;
  kinds: Partial<Record<SoakKind, number>>;
  /** The host after each batch; the first is the baseline (everything loaded and warmed up). */
  samples: SoakSample[];
  /** RSS after the last batch minus after the first, MiB. */
  rssGrowthMiB: number;
  /** File descriptors after the last batch minus after the first. */
  fdGrowth: number;
  /** Audit log lines: decisions ("approved" by a rule) and ends ("finished"). */
  audit: { decisions: number; finished: number };
  problems: {
    /** Commands whose result was not what they did: `<id> (<command>): <why>`. */
    wrongResults: string[];
    /** Commands that waited for the person although a rule allows them. */
    askedThePerson: string[];
    /** Processes of the workspace's commands alive after every command ended: `<pid> <cmdline>`. */
    leakedProcesses: string[];
    /** Files in the host's temp dir that nothing explains. */
    strayTempFiles: string[];
    /** Saved outputs no result points to, and results pointing to no file. */
    strayOutputFiles: string[];
    /** Commands without exactly one decision and one end in the audit log. */
    auditMismatches: string[];
  };
}

/** A report's problems as a clean run has them: every list empty. */
export function noProblems(): SoakReport["problems"] {
  return {
    wrongResults: [],
    askedThePerson: [],
    leakedProcesses: [],
    strayTempFiles: [],
    strayOutputFiles: [],
    auditMismatches: [],
  };
}

/** Runs a soak against a real browser host (the built `out/main/serve.js`) with the scripted model. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {});
  const plan = planSoak(options.commands, options.seed);
  const batches = chunk(plan, options.perBatch);
  const root = mkdtempSync(join(tmpdir(), "pi-desk-soak-"));
  // The host's own temp dir and data dir, so every file it leaves is ours to explain.
  const hostTmp = join(root, "tmp");
  const dataDir = join(root, "data");
  mkdirSync(hostTmp);
  const { server, child, cleanup } = await startScriptedDesk(scriptFor(batches, options.parallel), {
    args: ["--allow", SOAK_BINARIES.join(",")],
    env: { TMPDIR: hostTmp, PI_DESK_DATA_DIR: dataDir },
  });
  const hostPid = child.pid as number;
  const began = performance.now();
  const problems = noProblems();
  const samples: SoakSample[] = [];
  const fullOutputs = new Set<string>();
  let desk: DeskSocket | undefined;
  let ran = false;
  try {
    desk = await connectDesk(server);
    for (const pattern of SOAK_BINARIES) {
      await chatCalls(socketTarget(desk)).addRule({
        effect: "allow",
        match: "prefix",
        pattern,
        scope: "workspace",
      });
    }
    watchCommands(desk, plan, seededRandom(options.seed ^ 0x5eed), problems);
    let done = 0;
    for (const [index, batch] of batches.entries()) {
      const chat = chatCalls(socketTarget(desk));
      if (index > 0) {
        // A chat per batch, the last one closed: one chat open at a time, so what grows is a leak.
        const { chatId: last } = await desk.call("getState");
        await chat.newSession();
        if (last) await desk.call("closeChat", { chatId: last });
      }
      await chat.prompt({ text: `batch ${index}` });
      const commands = await batchEnd(desk, `batch ${index} done`, 60_000 + batch.length * 2_000);
      for (const planned of batch) {
        const view = commands[planned.id];
        if (view?.details?.fullOutputPath) fullOutputs.add(view.details.fullOutputPath);
        const wrong = planned.check(view, fileSize);
        if (wrong) problems.wrongResults.push(`${planned.id} (${planned.command}): ${wrong}`);
      }
      done += batch.length;
      samples.push(await sampleHost(hostPid, done));
      const last = samples.at(-1) as SoakSample;
      log(`${done}/${plan.length} commands: host RSS ${last.rssMiB.toFixed(1)} MiB, ${last.fds} fds`);
    }
    problems.leakedProcesses = commandProcesses(server.workspace);
    ran = true;
  } finally {
    desk?.close();
    await cleanup();
    // A soak that failed part-way leaves nothing behind either; a finished one is read below first.
    if (!ran) rmSync(root, { recursive: true, force: true });
  }
  // After the host stopped: it waits for its audit writes before it exits.
  problems.strayTempFiles = strayTempFiles(hostTmp);
  problems.strayOutputFiles = strayOutputFiles(dataDir, fullOutputs);
  const audit = checkAudit(dataDir, plan, problems.auditMismatches);
  rmSync(root, { recursive: true, force: true });
  const first = samples[0] as SoakSample;
  const last = samples.at(-1) as SoakSample;
  const kinds: SoakReport["kinds"] = {};
  for (const command of plan) kinds[command.kind] = (kinds[command.kind] ?? 0) + 1;
  return {
    commands: plan.length,
    seed: options.seed,
    durationSeconds: Math.round((performance.now() - began) / 1000),
    kinds,
    samples,
    rssGrowthMiB: last.rssMiB - first.rssMiB,
    fdGrowth: last.fds - first.fds,
    audit,
    problems,
  };
}

function chunk<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
}

/**
 * Per batch, the turns of the chat whose first message is "batch N": turns of `parallel` run_command calls,
 * then a text turn that ends the prompt.
 */
function scriptFor(batches: SoakCommand[][], parallel: number): Script {
  const turnsOf = (batch: SoakCommand[], index: number): ScriptBlock[][] => [
    ...chunk(batch, parallel).map((turn) =>
      turn.map(
        (c): ScriptBlock => ({
          type: "toolCall",
          id: c.id,
          name: "run_command",
          arguments: { command: c.command, timeout: c.timeout },
        }),
      ),
    ),
    [{ type: "text", text: `batch ${index} done` }],
  ];
  return Object.fromEntries(batches.map((batch, index) => [`batch ${index}`, turnsOf(batch, index)]));
}

/** Cancels the "cancel" commands a moment after they start; notes any command that asks the person. */
function watchCommands(
  desk: DeskSocket,
  plan: SoakCommand[],
  random: () => number,
  problems: SoakReport["problems"],
): void {
  const toCancel = new Set(plan.filter((c) => c.kind === "cancel").map((c) => c.id));
  desk.onEvent((event) => {
    if (event.type !== "command-update") return;
    const { chatId } = event;
    const { id, phase, approvalId } = event.command;
    if (approvalId && !problems.askedThePerson.includes(id)) {
      problems.askedThePerson.push(id);
      void desk.call("decide", {
        approvalId,
        decision: { kind: "deny", reason: "soak: a rule should allow it" },
      });
    }
    if (phase === "running" && toCancel.delete(id)) {
      setTimeout(
        () => desk.call("cancelCommand", { chatId, commandId: id }).catch(() => {}),
        Math.floor(random() * 300),
      );
    }
  });
}

/**
 * Waits until the agent stopped and said `text`; returns the session's commands, each with its output
 * (the state leaves long ended ones out: asked for as a page's card does).
 */
async function batchEnd(desk: DeskSocket, text: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const { session, chatId } = await desk.call("getState");
    const said = session?.transcript.some((item) => item.kind === "assistant" && item.text.includes(text));
    if (session && !session.running && said) {
      for (const view of Object.values(session.commands)) {
        if (!view.deferredOutput) continue;
        view.output = (
          await desk.call("commandOutput", { chatId: chatId as string, commandId: view.id })
        ).output;
      }
      return session.commands;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The soak's batch did not end within ${timeoutMs / 1000} s (waiting for "${text}").`);
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/**
 * The host's resident memory and open file descriptors, from /proc. The fewest descriptors of a few reads:
 * an audit line being appended as the batch ends holds one for a moment, which is not a leak.
 */
async function sampleHost(pid: number, afterCommands: number): Promise<SoakSample> {
  let fds = Number.POSITIVE_INFINITY;
  for (let read = 0; read < 5; read++) {
    fds = Math.min(fds, readdirSync(`/proc/${pid}/fd`).length);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return { afterCommands, rssMiB: rssKiB / 1024, fds };
}

/** Processes still running in the workspace with the run marker every command's tree carries. */
function commandProcesses(workspace: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, "latin1").includes("PI_DESK_RUN=")) continue;
      if (!readlinkSync(`/proc/${name}/cwd`).startsWith(workspace)) continue;
      found.push(`${name} ${readFileSync(`/proc/${name}/cmdline`, "latin1").replaceAll("\0", " ").trim()}`);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Everything in the host's temp dir but the commands' per-workspace home (kept on purpose). */
function strayTempFiles(hostTmp: string): string[] {
  return readdirSync(hostTmp, { recursive: true, encoding: "utf8" })
    .filter((path) => !path.startsWith("pi-desk-homes"))
    .map((path) => relative(hostTmp, join(hostTmp, path)));
}

/** Saved outputs no result names, and named outputs that are missing. */
function strayOutputFiles(dataDir: string, named: Set<string>): string[] {
  const workspaces = join(dataDir, "workspaces");
  const saved = readdirSync(workspaces).flatMap((id) => {
    const dir = join(workspaces, id, "outputs");
    return existsSync(dir) ? readdirSync(dir).map((file) => join(dir, file)) : [];
  });
  return [
    ...saved.filter((file) => !named.has(file)).map((file) => `unnamed: ${file}`),
    ...[...named].filter((file) => !saved.includes(file)).map((file) => `missing: ${file}`),
  ];
}

/** Every planned command must have exactly one decision (a rule approved it) and one end in the audit log. */
function checkAudit(dataDir: string, plan: SoakCommand[], mismatches: string[]): SoakReport["audit"] {
  const workspaces = join(dataDir, "workspaces");
  const entries = readdirSync(workspaces).flatMap((id) => {
    const file = join(workspaces, id, "audit.jsonl");
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditEntry);
  });
  const decisions = entries.filter((e) => e.event !== "finished");
  const finished = entries.filter((e) => e.event === "finished");
  for (const command of plan) {
    const mine = decisions.filter((e) => e.commandId === command.id);
    const ends = finished.filter((e) => e.commandId === command.id);
    const ruled = mine.length === 1 && mine[0]?.event === "approved" && mine[0]?.by === "rule";
    if (!ruled || ends.length !== 1) {
      mismatches.push(
        `${command.id}: ${mine.length} decision(s) ${mine.map((e) => `${e.event}/${e.by}`)}, ${ends.length} end(s)`,
      );
    }
  }
  const planned = new Set(plan.map((c) => c.id));
  for (const entry of entries)
    if (!planned.has(entry.commandId)) mismatches.push(`unplanned: ${entry.commandId}`);
  return { decisions: decisions.length, finished: finished.length };
}
