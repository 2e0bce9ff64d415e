import { execFileSync } from "node:child_process";
import type { App } from "electron";

// Electron cannot run here: these stand-ins for its app and window record what the shell's logic asks of
// them, and act as Electron does where that matters (a quit that no `before-quit` handler prevents exits).

type Handler = (...args: never[]) => unknown;

/** Electron's `app`, as far as the shell's logic uses it. */
export class FakeApp {
  private readonly handlers = new Map<string, Handler[]>();
  /** Whether the single-instance lock is this app's (false: another instance holds it). */
  lockIsOurs = true;
  /** Set once a quit went through. */
  exited = false;
  on(event: string, handler: Handler): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event) ?? []) (handler as (...a: unknown[]) => unknown)(...args);
  }
  quit(): void {
    let prevented = false;
    this.emit("before-quit", { preventDefault: () => (prevented = true) });
    if (!prevented) this.exited = true;
  }
  requestSingleInstanceLock(): boolean {
    return this.lockIsOurs;
  }
  /** This stand-in where Electron's `App` type is asked for (it has only the parts used). */
  get asApp(): App {
    return this as unknown as App;
  }
}

/** A BrowserWindow: shown or hidden, minimised, and its `close` event (which a handler may prevent). */
export class FakeWindow {
  private readonly handlers = new Map<string, Handler[]>();
  visible = true;
  minimized = false;
  closed = false;
  calls: string[] = [];
  on(event: string, handler: Handler): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  /** What the person's click on the close button does: closes unless a handler prevents it. */
  close(): void {
    let prevented = false;
    for (const handler of this.handlers.get("close") ?? [])
      (handler as (e: unknown) => void)({ preventDefault: () => (prevented = true) });
    if (!prevented) this.closed = true;
  }
  hide(): void {
    this.calls.push("hide");
    this.visible = false;
  }
  show(): void {
    this.calls.push("show");
    this.visible = true;
  }
  focus(): void {
    this.calls.push("focus");
  }
  restore(): void {
    this.calls.push("restore");
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.closed;
  }
}

/** Live processes whose whole command line is `sleep <tag>`. */
export function sleeps(tag: string): number[] {
  return execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, stat, ...args]) => !stat?.startsWith("Z") && args.join(" ") === `sleep ${tag}`)
    .map(([pid]) => Number(pid));
}

/** A question the shell asked, and the way to answer it. */
export interface Asked {
  question: string;
  answer(yes: boolean): void;
}

/** An `ask` that records each question and waits for the test to answer it. */
export function questions(): { asked: Asked[]; ask(question: string): Promise<boolean> } {
  const asked: Asked[] = [];
  return {
    asked,
    ask: (question) => new Promise<boolean>((resolve) => asked.push({ question, answer: resolve })),
  };
}
