import { defineTool } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import type { BackgroundState } from "../../../shared/commands";
import { describeLimitStop } from "../command-result";
import type { BackgroundCommands } from "./background-commands";

/** Lines `command_output` returns when the agent names no number; the tail kept is at most 2000 lines / 50 KB. */
const DEFAULT_LINES = 100;

const idParameter = Type.String({
  description: "The id run_command gave when it started the command in the background.",
  minLength: 1,
  maxLength: 200,
});

/** How a background command is doing, in one sentence for the model. */
export function describeBackground(state: BackgroundState): string {
  const ports = state.ports.length ? ` It listens on port ${state.ports.join(", ")} (127.0.0.1).` : "";
  if (state.status === "running") return `It is still running.${ports}`;
  if (state.limit) return describeLimitStop(state.limit, state.exitCode ?? null);
  if (state.status === "exited") return `It has exited with code ${state.exitCode ?? "unknown"}.`;
  const by = {
    person: "by the user",
    agent: "by you (stop_command)",
    cap: `at the host's cap of ${state.capSeconds} seconds`,
    "chat-closed": "when its chat closed",
    quit: "when the app quit",
  }[state.stoppedBy ?? "person"];
  return `It was stopped ${by}; its whole process tree has ended.`;
}

/**
 * `command_output`: the recent output of one of this chat's background commands, and whether it still
 * runs. It runs nothing new, so it needs no approval; it sees only this chat's commands.
 */
export function createCommandOutputTool(background: BackgroundCommands) {
  return defineTool({
    name: "command_output",
    label: "Background command output",
    description:
      "Read the recent output of a command you started with run_command and background: true, and whether " +
      `it still runs. Returns the last ${DEFAULT_LINES} lines unless you ask for another number (the host keeps ` +
      "the last 2000 lines or 50 KB).",
    promptSnippet: "Read the output of a background command",
    parameters: Type.Object({
      id: idParameter,
      lines: Type.Optional(
        Type.Integer({ description: "How many of the last lines to return.", minimum: 1, maximum: 2000 }),
      ),
    }),
    async execute(_toolCallId, params) {
      const { command, state, output } = background.get(params.id);
      const lines = output.text.split("\n");
      const wanted = params.lines ?? DEFAULT_LINES;
      const shown = lines.slice(-wanted).join("\n");
      const cut = lines.length > wanted ? `[The last ${wanted} of ${output.totalLines} lines.]\n` : "";
      return {
        content: [
          {
            type: "text",
            text: `${cut}${shown || "(no output yet)"}\n\nCommand \`${command}\`: ${describeBackground(state)}`,
          },
        ],
        details: { id: params.id, state },
      };
    },
  });
}

/** `stop_command`: ends one of this chat's background commands, its whole process tree, as Cancel does. */
export function createStopCommandTool(background: BackgroundCommands) {
  return defineTool({
    name: "stop_command",
    label: "Stop background command",
    description:
      "Stop a command you started with run_command and background: true: its whole process tree ends. " +
      "Use it when you no longer need a dev server or watcher.",
    promptSnippet: "Stop a background command",
    parameters: Type.Object({ id: idParameter }),
    async execute(_toolCallId, params) {
      const { command } = background.get(params.id);
      const state = await background.stop(params.id, "agent");
      return {
        content: [{ type: "text", text: `Command \`${command}\`: ${describeBackground(state)}` }],
        details: { id: params.id, state },
      };
    },
  });
}
