import type { BackgroundState, BackgroundStopper } from "../../../shared/commands";
import type { RefusalText } from "../../../shared/host-text";
import type { OutputSnapshot } from "../output/output-collector";
import type { ProcessOutcome } from "../process/process-runner";
import { listeningPorts } from "./listening-ports";

/** At most this many background commands per chat: each may hold ports, memory and CPU until stopped. */
export const MAX_BACKGROUND_COMMANDS = 8;

/** How long a background command may run unless the workspace says otherwise: 4 hours. */
export const DEFAULT_BACKGROUND_CAP_SECONDS = 4 * 60 * 60;

/** A command handed over to run on after `run_command` returned. */
export interface BackgroundHandover {
  /** The command as it runs. */
  command: string;
  /** The run itself; it resolves when the tree is gone. */
  outcome: Promise<ProcessOutcome>;
  /** Aborting it kills the whole tree. */
  controller: AbortController;
  /** The processes of its tree now, for their ports. */
  pids: () => Promise<number[]>;
  /** Its output so far. */
  latest: OutputSnapshot;
  /** The host's cap, in seconds. */
  capSeconds: number;
  /** When it started (ms since the epoch). */
  startedAt: number;
}

/** What the registry tells its owner, for the card, the panel, the audit log and the transcript. */
export interface BackgroundListener {
  /** Its state or ports changed. */
  onState(id: string, command: string, state: BackgroundState): void;
  /** It printed more (throttled by the runner). */
  onOutput(id: string, output: OutputSnapshot): void;
  /** It ended, stopped or exited; `outcome` is the runner's final record. */
  onEnd(id: string, command: string, state: BackgroundState, outcome: ProcessOutcome): void;
}

interface Entry extends BackgroundHandover {
  state: BackgroundState;
  stopping?: BackgroundStopper;
  /** Settles once the end is recorded and told. */
  done: Promise<void>;
}

/** How often the ports of running commands are read again: servers start listening late. */
const PORT_POLL_MS = 2_000;

/**
 * The background commands of one chat: dev servers and watchers the person approved. Each keeps running
 * until the person stops it, the agent does (`stop_command`), its cap passes, or the chat closes; every
 * one of those ends the whole process tree, as Cancel does.
 */
export class BackgroundCommands {
  private readonly entries = new Map<string, Entry>();
  /** Foreground commands running now, each with what moves it to the background. */
  private readonly movables = new Map<string, () => void>();
  private readonly poller: NodeJS.Timeout;

  constructor(
    private readonly listener: BackgroundListener,
    private readonly max = MAX_BACKGROUND_COMMANDS,
    /**
     * How many run in the background where the cap holds: the whole workspace's, when its chats share one
     * cap (every chat's commands use the same machine); absent: this chat's own.
     */
    private readonly runningWhereCapped: () => number = () => this.running(),
  ) {
    this.poller = setInterval(() => void this.refreshPorts(), PORT_POLL_MS);
    this.poller.unref();
  }

  /** How many of this chat's commands run in the background now. */
  running(): number {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.state.status === "running") count++;
    return count;
  }

  /** Why one more background command may not start now; undefined when it may. */
  refusal(): string | undefined {
    const say = this.refusalSay();
    if (!say) return undefined;
    return (
      `${say.running} commands already run in the background, the most this workspace allows. Stop one ` +
      "(stop_command with its id) or run this one in the foreground."
    );
  }

  /** The same as a kind and its parameters, for the page to word in its language. */
  refusalSay(): Extract<RefusalText, { id: "background-full" }> | undefined {
    const running = this.runningWhereCapped();
    return running < this.max ? undefined : { id: "background-full", running };
  }

  /** Lets "Keep running" move a running foreground command here; returns what forgets it once it ended. */
  movable(id: string, moveNow: () => void): () => void {
    this.movables.set(id, moveNow);
    return () => this.movables.delete(id);
  }

  /**
   * Moves a running foreground command to the background (the person's "Keep running"): it is not stopped
   * at its timeout but runs on to the cap. Refused when it no longer runs, or when the chat runs as many
   * background commands as it may.
   */
  keepRunning(id: string): void {
    const moveNow = this.movables.get(id);
    if (!moveNow) throw new Error(`Command "${id}" is not running in the foreground, so it cannot be moved.`);
    const refusal = this.refusal();
    if (refusal) throw new Error(refusal);
    moveNow();
  }

  /** Takes over a running command; from now on its output and its end go to the listener. */
  async adopt(id: string, handover: BackgroundHandover): Promise<BackgroundState> {
    const state: BackgroundState = {
      status: "running",
      ports: await listeningPorts(await handover.pids()),
      capSeconds: handover.capSeconds,
      startedAt: handover.startedAt,
    };
    const entry: Entry = { ...handover, state, done: Promise.resolve() };
    entry.done = handover.outcome.then((outcome) => this.ended(id, entry, outcome));
    this.entries.set(id, entry);
    this.listener.onState(id, entry.command, state);
    return state;
  }

  /** Passes a running command's output on (called by the runner's update hook). */
  output(id: string, output: OutputSnapshot): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.latest = output;
    this.listener.onOutput(id, output);
  }

  /** A background command of this chat, or an error that says which ids there are. */
  get(id: string): { command: string; state: BackgroundState; output: OutputSnapshot } {
    const entry = this.entries.get(id);
    if (!entry) {
      const known = [...this.entries.keys()];
      throw new Error(
        `No background command of this chat has the id "${id}". ` +
          (known.length ? `Its background commands: ${known.join(", ")}.` : "This chat has none."),
      );
    }
    return { command: entry.command, state: { ...entry.state }, output: entry.latest };
  }

  /** Whether this chat has a background command by that id. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Ends one command's whole tree and waits until it is gone; says how it ended. */
  async stop(id: string, by: BackgroundStopper): Promise<BackgroundState> {
    const entry = this.entries.get(id);
    if (!entry) return this.get(id).state;
    if (entry.state.status === "running") {
      entry.stopping ??= by;
      entry.controller.abort();
    }
    await entry.done;
    return { ...entry.state };
  }

  /** Ends every running command (the chat closes, the app quits). */
  async stopAll(by: BackgroundStopper): Promise<void> {
    clearInterval(this.poller);
    await Promise.all([...this.entries.keys()].map((id) => this.stop(id, by)));
  }

  private ended(id: string, entry: Entry, outcome: ProcessOutcome): void {
    const stoppedBy = entry.stopping ?? (outcome.timedOut ? "cap" : undefined);
    entry.state = {
      ...entry.state,
      status: stoppedBy ? "stopped" : "exited",
      ports: [],
      endedAt: Date.now(),
      ...(stoppedBy ? { stoppedBy } : { exitCode: outcome.exitCode }),
      ...(outcome.limit && !stoppedBy ? { limit: outcome.limit } : {}),
    };
    entry.latest = {
      text: outcome.output.text,
      totalBytes: outcome.output.totalBytes,
      totalLines: outcome.output.totalLines,
    };
    this.listener.onEnd(id, entry.command, { ...entry.state }, outcome);
  }

  private async refreshPorts(): Promise<void> {
    for (const [id, entry] of this.entries) {
      if (entry.state.status !== "running") continue;
      const ports = await listeningPorts(await entry.pids());
      if (entry.state.status !== "running" || ports.join() === entry.state.ports.join()) continue;
      entry.state = { ...entry.state, ports };
      this.listener.onState(id, entry.command, { ...entry.state });
    }
  }
}
