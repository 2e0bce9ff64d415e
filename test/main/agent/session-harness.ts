import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentSession, type AgentSessionEvent, defineTool } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";

// PI_OFFLINE and PI_CODING_AGENT_DIR are set by test/setup/pi-environment.ts before any test file's
// imports: Pi reads the agent dir into module constants (its tools' bin dir) when it is imported.

/** A fresh folder under the system temp dir. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `pi-desk-${prefix}-`));
}

/** Writes a script file (any JSON, valid or not) and returns its path. */
export function writeScript(turns: unknown): string {
  const path = join(tempDir("script"), "script.json");
  writeFileSync(path, typeof turns === "string" ? turns : JSON.stringify(turns));
  return path;
}

/** One call the stand-in `run_command` received. */
export interface ToolCallRecord {
  /** The agent's tool call id. */
  toolCallId: string;
  /** The command argument. */
  command: string;
  /** The signal the tool got; aborted when the agent is stopped. */
  signal: AbortSignal | undefined;
}

/**
 * A stand-in `run_command` (the real one is src/main/tools/run-command.ts). By default it answers at
 * once with `ran: <command>`; `run` replaces that, e.g. to wait on the signal.
 */
export function fakeRunCommand(run?: (command: string, signal: AbortSignal | undefined) => Promise<string>) {
  const calls: ToolCallRecord[] = [];
  const tool = defineTool({
    name: "run_command",
    label: "Run command",
    description: "Runs a shell command in the workspace.",
    parameters: Type.Object({ command: Type.String() }),
    async execute(toolCallId, params, signal, onUpdate) {
      calls.push({ toolCallId, command: params.command, signal });
      onUpdate?.({ content: [{ type: "text", text: "started" }], details: {} });
      const text = run ? await run(params.command, signal) : `ran: ${params.command}`;
      return { content: [{ type: "text", text }], details: {} };
    },
  });
  return { tool, calls };
}

/** Collects every event the session emits, in order. */
export function recordEvents(session: AgentSession): AgentSessionEvent[] {
  const events: AgentSessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  return events;
}

/** Event types in order; `message_update` shows its inner type, e.g. `message_update:text_delta`. */
export function trace(events: AgentSessionEvent[]): string[] {
  return events.map((event) =>
    event.type === "message_update" ? `message_update:${event.assistantMessageEvent.type}` : event.type,
  );
}

/** Resolves with the first event that matches. */
export function nextEvent(
  session: AgentSession,
  matches: (event: AgentSessionEvent) => boolean,
): Promise<AgentSessionEvent> {
  return new Promise((resolve) => {
    const stop = session.subscribe((event) => {
      if (!matches(event)) return;
      stop();
      resolve(event);
    });
  });
}
