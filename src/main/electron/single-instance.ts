import { resolve } from "node:path";
import type { App } from "electron";
import type { HostState } from "../../shared/host-state";
import { errorMessage } from "../base/errors";
import type { DeskHandlers } from "../core/desk-host";

/** `pi-desk --workspace <folder>`: the folder asked for, resolved against where it was launched from. */
export function workspaceArgument(argv: readonly string[], cwd: string = process.cwd()): string | undefined {
  const at = argv.indexOf("--workspace");
  const value = at >= 0 ? argv[at + 1] : undefined;
  return value ? resolve(cwd, value) : undefined;
}

/** A later launch of the app, as the first instance hears of it. */
export interface SecondLaunch {
  /** Its command line. */
  argv: string[];
  /** The folder it was launched from. */
  cwd: string;
}

/** The first instance's hold: later launches reach `handle` (the ones that came before it, once it is set). */
export interface SingleInstance {
  /** Handles every later launch from now on, and the ones that came while the app was starting. */
  handle(handler: (launch: SecondLaunch) => void): void;
}

/**
 * One Pi Desk per person (`app.requestSingleInstanceLock`): two would open the same folders, data and
 * keychain side by side. Null when another instance holds it: this one hands over its command line (Electron
 * sends it as `second-instance`) and quits. Called before the app is ready; launches that arrive before the
 * window exists wait for `handle`.
 */
export function claimSingleInstance(
  app: Pick<App, "requestSingleInstanceLock" | "on">,
): SingleInstance | null {
  if (!app.requestSingleInstanceLock()) return null;
  let handler: ((launch: SecondLaunch) => void) | undefined;
  const early: SecondLaunch[] = [];
  app.on("second-instance", (_event, argv, cwd) => {
    const launch = { argv, cwd };
    if (handler) handler(launch);
    else early.push(launch);
  });
  return {
    handle(next) {
      handler = next;
      for (const launch of early.splice(0)) next(launch);
    },
  };
}

/** What answering a later launch uses, passed in so it can be tested without Electron. */
export interface SecondLaunchShell {
  /** The host: the open folder and what runs in it, and opening another. */
  host: { state(): Pick<HostState, "workspaces">; handlers: Pick<DeskHandlers, "openWorkspace"> };
  /** Brings the window forward (shown, restored, focused). */
  bringForward(): void;
  /** Tells the person something went wrong: a heading and what happened. */
  tell(message: string, detail: string): void;
}

/**
 * A later launch brings the window forward; with `--workspace <folder>` it opens that folder here, beside
 * those open (nothing of theirs stops). Resolves once it is handled.
 */
export async function answerSecondLaunch(shell: SecondLaunchShell, launch: SecondLaunch): Promise<void> {
  shell.bringForward();
  const path = workspaceArgument(launch.argv, launch.cwd);
  if (!path || shell.host.state().workspaces.some((open) => open.path === path)) return;
  try {
    await shell.host.handlers.openWorkspace({ path });
  } catch (error) {
    shell.tell("Pi Desk did not open that folder", errorMessage(error));
  }
}
