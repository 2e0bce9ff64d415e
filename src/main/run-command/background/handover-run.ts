import { formatSize } from "@earendil-works/pi-coding-agent";
import { type CommandFacts, notRunResult, type RunCommandResult, ranResult } from "../command-result";
import type { OutputSnapshot } from "../output/output-collector";
import { type ProcessOutcome, type RunProcessOptions, runProcess } from "../process/process-runner";
import { findTreePids } from "../process/process-tree";
import type { NetworkPolicy } from "../sandbox/network/network-policy";
import { type CommandSandbox, type SandboxedOutcome, sandboxLimitHint } from "../sandbox/sandbox";
import type { BackgroundCommands } from "./background-commands";
import { describeBackground } from "./background-tools";
import { listeningPorts } from "./listening-ports";

/** How long a background command runs before the tool returns, unless it is ready sooner. */
export const DEFAULT_READINESS_MS = 10_000;

/** Output that says a server is up: a URL, or words such as "listening", "ready", "serving", "started". */
const READY_TEXT = /\bhttps?:\/\/[^\s"'<>]+|\blistening\b|\bready\b|\bserving\b|\bstarted\b/i;

/** How often the ports are read during the readiness window: a server that prints nothing is found by them. */
const READY_PORT_POLL_MS = 250;

/** What a background run needs besides the command. */
export interface HandoverRun {
  /** The chat's background commands. */
  commands: BackgroundCommands;
  /** The tool call id: the command's id for `command_output`, `stop_command` and the card. */
  id: string;
  /** The command, its cwd and its timeout (the background cap). */
  facts: CommandFacts;
  /** The run as a foreground command would have it; its `timeoutMs` is the cap, its signal the turn's. */
  run: RunProcessOptions;
  /** The sandbox it runs in, when the workspace uses one. */
  sandbox?: CommandSandbox;
  /** The network the command has in the sandbox (`true`: all of it); its proxy lives as long as the command. */
  network: boolean | NetworkPolicy;
  /**
   * How long to wait for it to be ready before handing it over (`background: true`). Absent for a foreground
   * command: it is handed over only if the person asks to keep it running, and its timeout then becomes
   * the cap.
   */
  readinessMs?: number;
  /** The host's cap on a background command, in seconds. */
  capSeconds: number;
  /** The timeout the model asked for, when the host's cap lowered it (for the foreground result). */
  asked?: number;
  /** Told once a command started in the foreground is moved to the background ("Keep running"). */
  onMovedToBackground?: () => void;
}

/**
 * Runs a command that may go on after the tool returns. With `background: true` the tool waits for a short
 * readiness window (less when the command prints a URL or says it is listening, or a port opens); a
 * foreground command waits for its end, unless the person presses "Keep running". Either way the run is
 * then handed to the chat's background commands, and the model is told its id, its ports and its output so
 * far. A command that ends first gets an ordinary result. Until the handover the turn's Stop and the card's
 * Cancel end it; after it, only Stop in the panel, `stop_command`, the cap, or the chat closing.
 */
export async function runWithHandover(background: HandoverRun): Promise<RunCommandResult> {
  const { commands, id, run } = background;
  let { facts } = background;
  const own = new AbortController();
  const turn = run.signal;
  const forwardAbort = () => own.abort();
  turn?.addEventListener("abort", forwardAbort, { once: true });
  if (turn?.aborted) own.abort();

  let tree: { pid: number; marker: string; rootStartTime?: number } | undefined;
  const pids = async () => (tree ? findTreePids(tree.pid, tree) : []);
  let latest: OutputSnapshot = { text: "", totalBytes: 0, totalLines: 0 };
  let handedOver = false;
  let ready: () => void = () => {};
  const readyNow = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const waitsForReadiness = background.readinessMs !== undefined;
  let moveDeadline: (timeoutMs: number) => void = () => {};

  const startedAt = Date.now();
  const outcome = start({
    ...background,
    run: {
      ...run,
      signal: own.signal,
      onStart: (started) => {
        tree = started;
        return run.onStart?.(started) ?? (() => {});
      },
      onUpdate: (update) => {
        latest = update;
        if (handedOver) commands.output(id, update);
        else {
          run.onUpdate?.(update);
          if (waitsForReadiness && READY_TEXT.test(update.text)) ready();
        }
      },
      onDeadline: (moveTo) => {
        moveDeadline = moveTo;
      },
    },
  });

  const poll = waitsForReadiness
    ? setInterval(async () => {
        if ((await listeningPorts(await pids())).length > 0) ready();
      }, READY_PORT_POLL_MS)
    : undefined;
  const window = waitsForReadiness ? setTimeout(ready, background.readinessMs) : undefined;
  // "Keep running" on a running card hands the command over at once.
  const forgetMovable = commands.movable(id, ready);
  const first = await Promise.race([outcome.then((ended) => ({ ended })), readyNow.then(() => undefined)]);
  clearInterval(poll);
  clearTimeout(window);
  forgetMovable();

  if (first?.ended) {
    turn?.removeEventListener("abort", forwardAbort);
    const { ended } = first;
    if ("failure" in ended) return notRunResult(facts, "refused", ended.failure, ended.failure, ended.say);
    const hint = background.sandbox ? sandboxLimitHint(ended.outcome.output.text) : undefined;
    return ranResult(facts, ended.outcome, { hint, asked: background.asked });
  }
  // From here the command belongs to the chat, not to the turn: Stop ends the turn, not the server.
  turn?.removeEventListener("abort", forwardAbort);
  handedOver = true;
  if (!waitsForReadiness) {
    // Moved from the foreground: it now runs to the cap, counted from its start.
    moveDeadline(background.capSeconds * 1000);
    facts = { ...facts, timeoutSeconds: background.capSeconds };
    background.onMovedToBackground?.();
  }
  const state = await commands.adopt(id, {
    command: facts.command,
    outcome: outcome.then((ended) => ("failure" in ended ? failedOutcome(ended.failure) : ended.outcome)),
    controller: own,
    pids,
    latest,
    capSeconds: facts.timeoutSeconds,
    startedAt,
  });
  const text = [
    latest.text || "(no output yet)",
    latest.totalBytes > Buffer.byteLength(latest.text)
      ? `[Output so far: the last part of ${formatSize(latest.totalBytes)}.]`
      : undefined,
    `Command \`${facts.command}\` runs in the background with id "${id}". ${describeBackground(state)} ` +
      `Read its output with command_output and end it with stop_command (id "${id}"); the host ends it ` +
      `after ${facts.timeoutSeconds} seconds at the latest.`,
  ];
  return {
    content: [{ type: "text", text: text.filter(Boolean).join("\n\n") }],
    details: {
      ...facts,
      status: "background",
      exitCode: null,
      timedOut: false,
      cancelled: false,
      durationMs: Date.now() - startedAt,
      truncated: latest.totalBytes > Buffer.byteLength(latest.text),
      totalBytes: latest.totalBytes,
      totalLines: latest.totalLines,
      background: true,
      ports: state.ports,
    },
    isError: false,
  };
}

type Ended = SandboxedOutcome;

function start({ run, sandbox, network }: HandoverRun): Promise<Ended> {
  return sandbox ? sandbox.run(run, network) : runProcess(run).then((outcome) => ({ outcome }));
}

/** A sandbox that could not start, as the runner would report a program that could not start. */
function failedOutcome(failure: string): ProcessOutcome {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled: false,
    spawnError: failure,
    durationMs: 0,
    output: {
      text: "",
      truncated: false,
      lastLinePartial: false,
      totalBytes: 0,
      totalLines: 0,
      outputLines: 0,
    },
  };
}
