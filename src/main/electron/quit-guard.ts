import type { App } from "electron";
import { commandsInFlight, editsWaiting, type OpenChats, stopQuestion } from "./work-in-flight";

/** The parts of Electron and of the host the quit guard uses, passed in so it can be tested without Electron. */
export interface QuitShell {
  /** The app: its `before-quit` event, and quitting again once the host is down. */
  app: Pick<App, "on" | "quit">;
  /** The host: what runs now, and ending it all. */
  host: { openChats(): OpenChats; dispose(): Promise<void> };
  /** Asks the person a yes/no question ("Quit" or "Cancel"); resolves true for "Quit". */
  ask(question: string): Promise<boolean>;
  /** Runs once the quit is decided, before the host is disposed (IPC and watches unhooked). */
  beforeDispose(): void;
}

/** Where a quit is: not asked, asked and being answered, ending the host, or free to go. */
type QuitState = "open" | "asking" | "closing" | "closed";

/**
 * Quitting with work in flight asks once ("Quit and stop 2 running commands (npm run dev, npm test)?");
 * then every running command's process tree is killed and the Pi session closed before the app exits:
 * commands run detached, so a quit that did not wait would leave them running (until the next start
 * reaps them). Returns whether a quit is under way, for the window rules (a close then really closes).
 */
export function guardQuit(shell: QuitShell): { quitting(): boolean } {
  let state: QuitState = "open";
  const quit = () => {
    state = "closing";
    shell.beforeDispose();
    void shell.host.dispose().finally(() => {
      state = "closed";
      shell.app.quit();
    });
  };
  shell.app.on("before-quit", (event) => {
    if (state === "closed") return;
    event.preventDefault();
    // A second Cmd+Q while the question shows or the host ends: the first one is being handled.
    if (state !== "open") return;
    const question = stopQuestion(
      "Quit",
      commandsInFlight(shell.host.openChats()),
      editsWaiting(shell.host.openChats()),
    );
    if (!question) return quit();
    state = "asking";
    const answered = (yes: boolean) => {
      if (yes) quit();
      else state = "open";
    };
    void shell.ask(question).then(answered, () => answered(false));
  });
  return { quitting: () => state === "closing" || state === "closed" };
}
