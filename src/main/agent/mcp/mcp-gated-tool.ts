/**
 * Every MCP tool behind the chat's gate: the tool Pi's MCP extension made is wrapped so that a call first
 * waits for the person (or a rule), is never sent when denied, is sent with the person's arguments when
 * they edited them (checked against the tool's schema by the gate first), and can be cancelled while it
 * runs (its AbortSignal reaches the MCP request, which tells the server it was cancelled).
 */
import type { ToolDefinition } from "@earendil-works/pi-coding-agent";
import { Compile } from "typebox/compile";
import type {
  McpCallDetails,
  McpCallView,
  McpDecision,
  McpToolHint,
  PiScriptTool,
} from "../../../shared/mcp";
import type { GateAnswer, McpRequest } from "../../approvals/approval-gate";
import type { CommandRecorder } from "../../run-command";
import {
  audioOf,
  imagesOf,
  PI_SCRIPT_SERVER,
  piScriptTool,
  RESULT_CHARS,
  resourceLinksOf,
} from "./mcp-call-views";

/** What the wrapped tools need of their chat. */
export interface McpGate {
  /** The gate's approval hook. */
  approve(request: McpRequest, signal: AbortSignal | undefined): Promise<GateAnswer<McpDecision>>;
  /** The chat's cancel handles by call id (the same `cancelCommand` ends a command and a call). */
  controllers: Map<string, AbortController>;
  /** Changes the call's card. */
  update(id: string, patch: Partial<McpCallView>): void;
  /**
   * The change engine, for servers that are local processes (they may write in the folder): each such
   * call is recorded like a command. Absent: changes are not recorded in this chat.
   */
  recorder?: CommandRecorder;
  /** Whether a server is a local process (stdio), whose calls are recorded. */
  isLocal(server: string): boolean;
}

/** The server's hints, by the annotation that says each. */
const HINTS: [string, McpToolHint][] = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open-world"],
];

/**
 * The tool, asking the gate before every call. Pi's codemode and tool_search pass here too: a script is
 * approved (or edited) before it runs, a search before it declares tools; the calls a script makes reach
 * their own gated tools through Pi's tool pipeline and wait there.
 */
export function gateMcpTool(tool: ToolDefinition, gate: McpGate): ToolDefinition {
  const piTool: PiScriptTool | undefined = piScriptTool(tool.name);
  // Pi labels a server's tool `server/tool`; the resource tools reach every server.
  const slash = tool.label.indexOf("/");
  const server = piTool ? PI_SCRIPT_SERVER : slash > 0 ? tool.label.slice(0, slash) : "mcp";
  const name = piTool ?? (slash > 0 ? tool.label.slice(slash + 1) : tool.name);
  const annotations = (tool as { annotations?: Record<string, boolean> }).annotations ?? {};
  const hints = HINTS.filter(([key]) => annotations[key] === true).map(([, hint]) => hint);
  const check = schemaCheck(tool.parameters);
  return {
    ...tool,
    async execute(toolCallId, params, signal, onUpdate, ctx) {
      const asked = (params ?? {}) as Record<string, unknown>;
      const details = (
        status: McpCallDetails["status"],
        more: Partial<McpCallDetails> = {},
      ): McpCallDetails => ({
        piDesk: "mcp-call",
        server,
        tool: name,
        status,
        ...more,
      });
      const answer = await gate.approve(
        {
          toolCallId,
          server,
          tool: name,
          ...(piTool ? { piTool } : {}),
          description: tool.description,
          arguments: asked,
          hints,
          check,
        },
        signal,
      );
      if (answer.kind === "cancelled") {
        const reason = "The turn was stopped before the user decided; nothing was sent to the server.";
        return {
          content: [{ type: "text", text: reason }],
          details: details("cancelled", { reason }),
          isError: true,
        };
      }
      if (answer.kind === "deny") {
        const reason = answer.reason?.trim()
          ? `The user denied this call: ${answer.reason.trim()}`
          : "The user denied this call; nothing was sent to the server.";
        return {
          content: [{ type: "text", text: reason }],
          details: details("denied", { reason }),
          isError: true,
        };
      }
      const edited = answer.arguments !== undefined;
      const args = answer.arguments ?? asked;
      const cancel = new AbortController();
      gate.controllers.set(toolCallId, cancel);
      gate.update(toolCallId, {
        status: "running",
        arguments: args,
        ...(edited ? { editedByPerson: true } : {}),
      });
      const sent = { arguments: args, ...(edited ? { editedByPerson: true } : {}) };
      let changedNote: string | undefined;
      let changes: McpCallDetails["changes"];
      const running = signal ? AbortSignal.any([signal, cancel.signal]) : cancel.signal;
      const recorder = gate.isLocal(server) ? gate.recorder : undefined;
      try {
        // A failing recorder costs the record, never the call (as for commands).
        const recording = await recorder?.started(toolCallId, running).then(
          () => true,
          () => false,
        );
        const result = await tool
          .execute(toolCallId, args as never, running, onUpdate, ctx)
          .finally(async () => {
            if (!recording || !recorder) return;
            const recorded = await recorder.ended(toolCallId).catch(() => undefined);
            if (recorded) {
              changes = recorded.changes;
              gate.update(toolCallId, { changes: recorded.changes });
              if (recorded.note) changedNote = recorded.note;
            }
          });
        const failed = (result as { isError?: boolean }).isError === true;
        // A codemode script returns (with its partial output) rather than throwing when it is stopped.
        const stopped = stoppedReason(cancel.signal, signal);
        // The card keeps the server's own answer and its images: Pi leaves images out for a model without
        // image input, and the notes below are for the model.
        const images = imagesOf(result.content);
        if (images.length > 0) gate.update(toolCallId, { images });
        // Pi's content for the model says only "[audio … omitted]" and names a link: the server's own
        // blocks (Pi's `structuredContent` is the whole MCP result) give the card the sound and the links.
        const served = (result as { structuredContent?: { content?: unknown } }).structuredContent?.content;
        const audio = audioOf(served);
        const links = resourceLinksOf(served);
        if (audio.length > 0 || links.length > 0)
          gate.update(toolCallId, {
            ...(audio.length > 0 ? { audio } : {}),
            ...(links.length > 0 ? { links } : {}),
          });
        const resultText = result.content
          .map((block) => (block.type === "text" ? block.text : ""))
          .join("\n")
          .slice(0, RESULT_CHARS);
        const note = [
          ...(changedNote ? [{ type: "text" as const, text: changedNote }] : []),
          ...(edited
            ? [
                {
                  type: "text" as const,
                  text:
                    piTool === "codemode" && typeof args.code === "string"
                      ? `(The user edited the script before approving; this is the script that ran:)\n${args.code}`
                      : `(The user edited the arguments before approving: ${JSON.stringify(args)})`,
                },
              ]
            : []),
          ...(stopped ? [{ type: "text" as const, text: stopped }] : []),
        ];
        return {
          ...result,
          content: [...result.content, ...note],
          details: details(stopped ? "cancelled" : failed ? "failed" : "done", {
            ...sent,
            ...(stopped ? { reason: stopped } : {}),
            resultText,
            ...(links.length > 0 ? { links } : {}),
            ...(changes ? { changes } : {}),
          }),
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // The person's Cancel on the card, or Stop (the turn's signal): either way the server was told.
        const cancelled = cancel.signal.aborted || signal?.aborted === true;
        const reason = stoppedReason(cancel.signal, signal) ?? message;
        return {
          content: [{ type: "text", text: reason }],
          details: details(cancelled ? "cancelled" : "failed", { ...sent, reason }),
          isError: true,
        };
      } finally {
        gate.controllers.delete(toolCallId);
      }
    },
  };
}

/** Why a running call stopped: the person's Cancel on its card, or Stop (the turn's signal); undefined: it did not. */
function stoppedReason(cancel: AbortSignal, turn: AbortSignal | undefined): string | undefined {
  if (cancel.aborted) return "The user cancelled this call while it ran.";
  if (turn?.aborted) return "The turn was stopped while this call ran.";
  return undefined;
}

/** The tool's JSON Schema compiled once (TypeBox checks plain JSON Schema); its first error, said plainly. */
function schemaCheck(schema: unknown): (args: Record<string, unknown>) => string | undefined {
  let compiled: ReturnType<typeof Compile> | undefined;
  try {
    compiled = Compile(schema as Parameters<typeof Compile>[0]);
  } catch {
    // A schema TypeBox cannot compile: the server still checks what it is sent.
    return () => undefined;
  }
  const validator = compiled;
  return (args) => {
    if (validator.Check(args)) return undefined;
    const first = [...validator.Errors(args)][0] as { instancePath?: string; message?: string } | undefined;
    const where = first?.instancePath ? `${first.instancePath}: ` : "";
    return `${where}${first?.message ?? "does not match"}`;
  };
}
