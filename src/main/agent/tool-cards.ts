import type { RunCommandDetails } from "../../shared/commands";
import type { EditTool, FileEditDetails } from "../../shared/edits";
import type { McpCallDetails } from "../../shared/mcp";
import type { CommandViews } from "./command-views";
import { EDIT_TOOLS, type EditViews } from "./edit-views";
import { isMcpTool, type McpCallViews } from "./mcp/mcp-call-views";
import { blocksOf, textOf } from "./message-content";

/** The transcript entry a tool call with a card of its own takes. */
export type CardKind = "command" | "edit" | "mcp-call";

/** A tool's result as Pi stores or reports it. */
export interface ToolResult {
  content?: unknown;
  details?: unknown;
  isError?: boolean;
  /** Pi's record of the calls a codemode script made. */
  nestedCalls?: unknown;
}

/**
 * Which card a tool call gets, and its start and end on that card: `run_command` a command card, `edit` and
 * `write` an edit card, an MCP tool (or Pi's codemode and tool_search) an MCP card; any other tool none (the
 * transcript shows it as a plain line).
 */
export class ToolCards {
  constructor(
    readonly views: CommandViews,
    readonly edits: EditViews,
    readonly mcpCalls: McpCallViews,
  ) {}

  /** Starts the call's card; the kind of entry it takes, or undefined for a tool without a card. */
  started(
    id: string,
    name: string | undefined,
    args: Record<string, unknown>,
    live: boolean,
    parentToolCallId?: string,
  ): CardKind | undefined {
    if (name === "run_command") {
      this.views.started(id, args, live, parentToolCallId);
      return "command";
    }
    if (name && EDIT_TOOLS.includes(name)) {
      this.edits.started(id, name as EditTool, args, live, parentToolCallId);
      return "edit";
    }
    if (isMcpTool(name)) {
      this.mcpCalls.started(id, name as string, args, live, parentToolCallId);
      return "mcp-call";
    }
    return undefined;
  }

  /** Ends the call's card with its result; false when the call has no card. */
  ended(id: string, result: ToolResult, live: boolean): boolean {
    if (this.views.byId.has(id)) {
      // The output is the first block; a second one tells the model what the command changed, which
      // the card shows in its own place.
      const output = textOf(blocksOf(result.content).slice(0, 1));
      this.views.ended(id, result.details as RunCommandDetails | undefined, output, live);
      return true;
    }
    if (this.edits.byId.has(id)) {
      const said = textOf(blocksOf(result.content).slice(0, 1));
      this.edits.ended(id, result.details as FileEditDetails | undefined, said, live);
      return true;
    }
    if (this.mcpCalls.byId.has(id)) {
      const text = textOf(result.content);
      // A stored result message carries Pi's record of the calls a script made.
      const failed = result.isError === true;
      this.mcpCalls.ended(
        id,
        result.details as McpCallDetails | undefined,
        text,
        failed,
        live,
        result.nestedCalls,
      );
      return true;
    }
    return false;
  }

  /** Cards of a reopened chat whose change records are gone (pruned since): they stop offering undo. */
  markDropped(recorded: (id: string) => boolean): void {
    const commands = [...this.views.byId.values()].filter((view) => view.details?.changes?.recorded);
    this.views.changesDropped(
      commands.filter((view) => !recorded(view.id)).map((view) => view.id),
      false,
    );
    const edits = [...this.edits.byId.values()].filter((view) => view.changes?.recorded);
    this.edits.changesDropped(
      edits.filter((view) => !recorded(view.id)).map((view) => view.id),
      false,
    );
  }

  /** The codemode call whose script made this call (its card says so, and so does its audit line). */
  parentOf(id: string): string | undefined {
    return (
      this.mcpCalls.byId.get(id)?.parentToolCallId ??
      this.views.byId.get(id)?.parentToolCallId ??
      this.edits.byId.get(id)?.parentToolCallId
    );
  }
}
