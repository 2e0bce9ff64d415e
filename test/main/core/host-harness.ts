import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { type ChatCalls, chatCalls, hostTarget } from "../../../harness/chat-calls";
import { DeskHost, type DeskHostOptions } from "../../../src/main/core/desk-host";
import type { CommandView } from "../../../src/shared/commands";
import type { HostEvent } from "../../../src/shared/host-events";

/** The host's calls bound to a chat: the one named, else the newest at each call (see harness/chat-calls.ts). */
export function calls(host: DeskHost, chatId?: string): ChatCalls {
  return chatCalls(hostTarget(host), chatId);
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  delete process.env.PI_DESK_SCRIPT;
});

/** A script turn for the scripted model: text and tool calls. */
export type Turn = (
  | { type: "text"; text: string }
  | { type: "toolCall"; id?: string; name: string; arguments: object }
)[];

/** A `run_command` call block. */
export const runCommand = (id: string, command: string, timeout?: number) => ({
  type: "toolCall" as const,
  id,
  name: "run_command",
  arguments: timeout === undefined ? { command } : { command, timeout },
});

/**
 * A host on a fresh workspace whose agent plays `turns` (each chat from its first turn), or each chat's turns by
 * the start of its first message; disposed after the test.
 */
export async function startHost(
  turns: Turn[] | Record<string, Turn[]>,
  options: Partial<DeskHostOptions> = {},
  /** Runs on the new workspace folder before the host opens it (files its first chat should find). */
  prepare?: (workspace: string) => void,
) {
  const root = mkdtempSync(join(tmpdir(), "pi-desk-host-"));
  const workspace = join(root, "repo");
  const script = join(root, "script.json");
  writeFileSync(script, JSON.stringify(turns));
  mkdirSync(workspace);
  prepare?.(workspace);
  process.env.PI_DESK_SCRIPT = script;
  const host = await DeskHost.create({
    shell: "browser",
    version: "test",
    workspace: { path: workspace, name: "repo" },
    dataRoot: join(root, "data"),
    ...options,
  });
  const events: HostEvent[] = [];
  host.subscribe((event) => events.push(event));
  cleanups.push(async () => {
    await host.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  return { host, events, workspace, root };
}

/** Polls until `find` returns something, or fails after `ms`. */
export async function waitFor<T>(
  find: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const found = await find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("timed out waiting");
}

/** The command with this id, as the host holds it. */
export function commandOf(host: DeskHost, id: string): CommandView | undefined {
  // As the host holds it: the state leaves long ended outputs out (the page asks for them).
  return host.command(id);
}

/** Waits until the command waits for the person, and returns its approval id. */
export async function pendingApproval(host: DeskHost, id: string): Promise<string> {
  return waitFor(() => commandOf(host, id)?.approvalId);
}

/** Waits until the agent has finished its turn. */
export async function settled(host: DeskHost): Promise<void> {
  await waitFor(() => host.state().session?.running === false && host.state().session?.transcript.length);
}

/** Waits until an assistant message containing `text` has finished. */
export async function assistantSaid(host: DeskHost, text: string): Promise<void> {
  await waitFor(() =>
    host
      .state()
      .session?.transcript.some(
        (item) => item.kind === "assistant" && !item.streaming && item.text.includes(text),
      ),
  );
}

/** Whether bubblewrap can run here (sandbox tests are skipped, and say so by their `runIf`, where it cannot). */
export const sandboxOnHere = (() => {
  try {
    execFileSync("bwrap", ["--ro-bind", "/", "/", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
