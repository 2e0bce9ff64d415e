import { errorMessage } from "../base/errors";
import type { RecorderState } from "./recorder-types";
import type { RecordStore } from "./records";
import type { ShadowRepo } from "./shadow-repo";
import type { StoredObjects } from "./stored-objects";

/**
 * Whether the recorder is on, and how each of its calls runs: one after another (one index, one scan
 * at a time), each on the recorder's parts, and when recording is off (or turns off during the call)
 * or the call fails, answered by the call's fallback with the reason instead of an error, so a
 * command never fails for the engine's own trouble.
 */

/** What a recorder that is on works with. */
export interface RecorderParts {
  /** The records of the commands. */
  store: RecordStore;
  /** The shadow repository. */
  repo: ShadowRepo;
  /** Its objects, as this process stores them. */
  objects: StoredObjects;
}

/** The recorder's on/off state and its queue of calls (see the module's comment). */
export class RecorderGate {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private stateNow: RecorderState,
    /** Undefined for a recorder that opened off. */
    private readonly parts: RecorderParts | undefined,
  ) {}

  /** Whether recording is on. */
  get state(): RecorderState {
    return this.stateNow;
  }

  /** Turns recording off for `reason` (shown to the person, and the answer of every later call). */
  turnOff(reason: string): void {
    this.stateNow = { type: "off", reason };
  }

  /**
   * Runs `task` after every earlier call (one index, one scan at a time). When recording is off, or
   * (with `catchErrors`) when the task fails, resolves to `fallback(reason)` instead.
   */
  guard<T>(
    task: (store: RecordStore, repo: ShadowRepo, objects: StoredObjects) => Promise<T>,
    fallback: (reason: string) => T,
    catchErrors = true,
  ): Promise<T> {
    return this.serial(async () => {
      if (this.stateNow.type === "off" || !this.parts) {
        return fallback(this.offNote());
      }
      const { store, repo, objects } = this.parts;
      try {
        // Trees a scan kept in memory only: stored before any task, so git finds what records name.
        await objects.flushTrees();
        return await task(store, repo, objects);
      } catch (error) {
        // A snapshot that turned recording off says so in the words of the off state.
        const now: RecorderState = this.state; // re-read: the task may have changed it
        if (now.type === "off") return fallback(now.reason);
        if (!catchErrors) throw error;
        return fallback(`Recording failed: ${errorMessage(error)}`);
      }
    });
  }

  /** Runs `task` after every earlier call, whatever the state. */
  serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Waits for the calls in flight (and queued) to end. */
  async drain(): Promise<void> {
    await this.queue.catch(() => {});
  }

  private offNote(): string {
    return this.stateNow.type === "off" ? this.stateNow.reason : "Recording changes is off.";
  }
}
