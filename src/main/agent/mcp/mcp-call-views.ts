import type { ChatEventBody } from "../../../shared/host-events";
import type {
  McpAudio,
  McpCallDetails,
  McpCallView,
  McpImage,
  McpResourceLink,
  McpScriptCall,
  PiScriptTool,
} from "../../../shared/mcp";
import { blocksOf, textOf } from "../message-content";

/** The result's images a card may show: a few, each small enough to send to the page. */
export function imagesOf(content: unknown): McpImage[] {
  return blocksOf(content)
    .map((block) => block as { type: string; data?: unknown; mimeType?: unknown })
    .filter(
      (block): block is { type: "image"; data: string; mimeType: string } =>
        block.type === "image" &&
        typeof block.data === "string" &&
        typeof block.mimeType === "string" &&
        /^image\/(png|jpeg|gif|webp)$/.test(block.mimeType) &&
        block.data.length <= CARD_IMAGE_CHARS,
    )
    .slice(0, CARD_IMAGES)
    .map(({ data, mimeType }) => ({ data, mimeType }));
}

/** The result's audio clips a card may play: a few, each small enough to send to the page. */
export function audioOf(content: unknown): McpAudio[] {
  return blocksOf(content)
    .map((block) => block as { type: string; data?: unknown; mimeType?: unknown })
    .filter(
      (block): block is { type: "audio"; data: string; mimeType: string } =>
        block.type === "audio" &&
        typeof block.data === "string" &&
        typeof block.mimeType === "string" &&
        /^audio\/[\w.+-]+$/.test(block.mimeType) &&
        block.data.length <= CARD_AUDIO_CHARS,
    )
    .slice(0, CARD_AUDIO)
    .map(({ data, mimeType }) => ({ data, mimeType }));
}

/** The resources the result points to, as the server describes them (bounded, plain strings only). */
export function resourceLinksOf(content: unknown): McpResourceLink[] {
  const text = (value: unknown) => (typeof value === "string" ? value.slice(0, LINK_FIELD_CHARS) : undefined);
  return blocksOf(content)
    .map((block) => block as { type: string; [field: string]: unknown })
    .filter((block) => block.type === "resource_link" && typeof block.uri === "string")
    .slice(0, CARD_LINKS)
    .map((block) => {
      const [title, description, mimeType] = [
        text(block.title),
        text(block.description),
        text(block.mimeType),
      ];
      return {
        uri: text(block.uri) as string,
        name: text(block.name) ?? (text(block.uri) as string),
        ...(title ? { title } : {}),
        ...(description ? { description } : {}),
        ...(mimeType ? { mimeType } : {}),
      };
    });
}

/** The most calls of a script a card lists (Pi records at most 256). */
const CARD_SCRIPT_CALLS = 256;

/** The calls a script made, from Pi's record on its result message (`nestedCalls`); plain strings only. */
function scriptCallsOf(record: unknown): McpScriptCall[] {
  // `{ calls, complete }`: `complete` false when Pi dropped calls or their arguments past its limits.
  const calls = (record as { calls?: unknown } | undefined)?.calls;
  if (!Array.isArray(calls)) return [];
  return calls
    .map((call) => call as { id?: unknown; name?: unknown; status?: unknown })
    .filter((call) => typeof call.id === "string" && typeof call.name === "string")
    .slice(0, CARD_SCRIPT_CALLS)
    .map((call) => ({
      id: call.id as string,
      name: call.name as string,
      status: call.status === "ok" || call.status === "error" ? call.status : "unfinished",
    }));
}

/** The most audio clips a card plays, and the largest (base64 characters). */
const CARD_AUDIO = 2;
const CARD_AUDIO_CHARS = 4 * 1024 * 1024;
/** The most resource links a card lists, and the longest of each of their fields. */
const CARD_LINKS = 20;
const LINK_FIELD_CHARS = 2000;

/** The longest result text a card keeps (the model's own copy is Pi's, bounded by Pi). */
export const RESULT_CHARS = 20_000;

/** The most images a card shows, and the largest (base64 characters): thumbnails, not an image store. */
const CARD_IMAGES = 4;
const CARD_IMAGE_CHARS = 1024 * 1024;

/** Pi's resource tools, which reach every server with resources: MCP calls like a server's tools. */
const RESOURCE_TOOLS = ["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"];

/** The `server` a codemode or tool_search call's view names: Pi itself. */
export const PI_SCRIPT_SERVER = "pi";

/** Pi's codemode or tool_search, by tool name; undefined for any other tool. */
export function piScriptTool(name: string | undefined): PiScriptTool | undefined {
  return name === "codemode" || name === "tool_search" ? name : undefined;
}

/**
 * Whether a tool name is an MCP tool's (`mcp__<server>__<tool>`, or one of the resource tools), or Pi's
 * codemode or tool_search, which are shown and decided like one.
 */
export function isMcpTool(name: string | undefined): boolean {
  return (
    name !== undefined &&
    (name.startsWith("mcp__") || RESOURCE_TOOLS.includes(name) || piScriptTool(name) !== undefined)
  );
}

/** The server and tool a tool name says, until the gate names them exactly (names are sanitised by Pi). */
function namesOf(name: string): { server: string; tool: string; piTool?: PiScriptTool } {
  const piTool = piScriptTool(name);
  if (piTool) return { server: PI_SCRIPT_SERVER, tool: piTool, piTool };
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match ? { server: match[1] as string, tool: match[2] as string } : { server: "mcp", tool: name };
}

/**
 * Every MCP tool call of a conversation as the page shows it, from the agent's ask to its end: part of the
 * session's projection (tool events and the gate's card changes go in, `mcp-call-update` events come out).
 */
export class McpCallViews {
  /** The views by call id (the tool call id). */
  readonly byId = new Map<string, McpCallView>();

  constructor(private readonly emit: (event: ChatEventBody) => void) {}

  /** The agent (or a script, `parentToolCallId`) asked for a call: its card starts pending. */
  started(
    id: string,
    name: string,
    args: Record<string, unknown>,
    live: boolean,
    parentToolCallId?: string,
  ): void {
    const view: McpCallView = {
      id,
      ...namesOf(name),
      arguments: args,
      hints: [],
      status: "pending",
      ...(parentToolCallId ? { parentToolCallId } : {}),
    };
    this.byId.set(id, view);
    if (live) this.emit({ type: "mcp-call-update", call: view });
  }

  /** Replaces a call's view and tells the page. */
  update(id: string, patch: Partial<McpCallView>): McpCallView | undefined {
    const current = this.byId.get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    for (const key of Object.keys(next) as (keyof McpCallView)[])
      if (next[key] === undefined) delete next[key];
    this.byId.set(id, next);
    this.emit({ type: "mcp-call-update", call: next });
    return next;
  }

  /** The tool returned: answered, failed, denied or cancelled. */
  ended(
    id: string,
    details: McpCallDetails | undefined,
    content: unknown,
    isError: boolean,
    live: boolean,
    nestedCalls?: unknown,
  ): void {
    const text = textOf(content);
    const scriptCalls = scriptCallsOf(nestedCalls);
    const view = this.byId.get(id);
    if (!view) return;
    const mine = details?.piDesk === "mcp-call" ? details : undefined;
    const status = mine?.status ?? (isError ? (text.includes("aborted") ? "cancelled" : "failed") : "done");
    const next: McpCallView = {
      ...view,
      ...(mine ? { server: mine.server, tool: mine.tool } : {}),
      ...(mine?.arguments ? { arguments: mine.arguments } : {}),
      ...(mine?.editedByPerson ? { editedByPerson: true } : {}),
      ...(mine?.changes ? { changes: mine.changes } : {}),
      ...(mine?.links ? { links: mine.links } : {}),
      ...(scriptCalls.length > 0 ? { scriptCalls } : {}),
      status,
      ...(status === "done" || status === "failed"
        ? { result: (mine?.resultText ?? text).slice(0, RESULT_CHARS) }
        : {}),
      ...(mine?.reason ? { reason: mine.reason } : status !== "done" && !mine ? { reason: text } : {}),
    };
    delete next.approvalId;
    this.byId.set(id, next);
    if (live) this.emit({ type: "mcp-call-update", call: next });
  }

  /** After reopening a stored conversation: a call without a result was cut short when the host stopped. */
  settleStored(): void {
    for (const [id, view] of this.byId) {
      if (view.status !== "pending" && view.status !== "running") continue;
      const next: McpCallView = {
        ...view,
        status: "cancelled",
        reason: "Pi Desk stopped before this call ended.",
      };
      delete next.approvalId;
      this.byId.set(id, next);
    }
  }
}
