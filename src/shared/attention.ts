import type { CommandView } from "./commands";
import type { EditView } from "./edits";
import type { ChatEventBody } from "./host-events";
import type { InboxEntry } from "./host-state";
import type { McpCallView } from "./mcp";

/*
 * Which commands wait for the person, and what a notification about one says. Pure, so the Electron shell
 * (main-process notifications) and the browser page (Web Notifications) decide the same way.
 */

/** The title of a notification about a waiting command, in every shell. */
export const WAITING_TITLE = "Pi Desk: a command waits for your approval";

/** The longest body a notification gets; OSes cut longer ones anyway. */
const MAX_BODY = 200;

/** A notification's body: the command's first line, clipped; never any of its output. */
export function waitingBody(command: Pick<CommandView, "command">): string {
  const lines = command.command.split("\n");
  const first = (lines[0] ?? "").trim();
  const more = lines.length > 1 || first.length > MAX_BODY;
  return more ? `${first.slice(0, MAX_BODY)}…` : first;
}

/**
 * Whether the command waits for the person: pending, with an approval id issued, and not yet answered
 * (the host keeps the id until the command starts, and marks who decided as soon as someone did). Not
 * one the rules are still checking (no approval id yet), nor one a rule allowed on the way to running.
 */
export function awaitsPerson(command: CommandView | undefined): command is CommandView {
  return command?.phase === "pending" && command.approvalId !== undefined && command.decidedBy === undefined;
}

/** Whether the file edit waits for the person: pending, its diff shown (an approval id), not yet answered. */
export function editAwaitsPerson(edit: EditView): boolean {
  return edit.status === "pending" && edit.approvalId !== undefined && edit.decidedBy === undefined;
}

/**
 * The ids of the commands waiting for the person's decision (`awaitsPerson`): one the rules still check,
 * or allowed, would raise a notification withdrawn a moment later.
 */
export function waitingIds(commands: Record<string, CommandView> | undefined): Set<string> {
  const ids = new Set<string>();
  for (const command of Object.values(commands ?? {})) if (awaitsPerson(command)) ids.add(command.id);
  return ids;
}

/** The title of a notification about a waiting file edit, in every shell. */
export const WAITING_EDIT_TITLE = "Pi Desk: a file edit waits for your approval";

/** A notification's body for a waiting edit: the tool and the file, never its content. */
export function waitingEditBody(edit: Pick<EditView, "tool" | "path">): string {
  return `${edit.tool} ${edit.path}`.slice(0, MAX_BODY);
}

/** The ids of the file edits waiting for a decision (once the host has shown their diff). */
export function waitingEditIds(edits: Record<string, EditView> | undefined): Set<string> {
  const ids = new Set<string>();
  for (const edit of Object.values(edits ?? {})) if (editAwaitsPerson(edit)) ids.add(edit.id);
  return ids;
}

/** What changed between two sets of waiting ids: which started waiting, which no longer wait. */
export function waitingChanges(
  before: ReadonlySet<string>,
  now: ReadonlySet<string>,
): { started: string[]; answered: string[] } {
  return {
    started: [...now].filter((id) => !before.has(id)),
    answered: [...before].filter((id) => !now.has(id)),
  };
}

/** What names a waiting request across chats (a tool call id is only unique within its chat). */
export function inboxKey(entry: InboxEntry): string {
  return `${entry.chatId}:${inboxEntryId(entry)}`;
}

/** The tool call id of what waits, whatever its kind. */
export function inboxEntryId(entry: InboxEntry): string {
  if (entry.kind === "command") return entry.command.id;
  return entry.kind === "edit" ? entry.edit.id : entry.call.id;
}

/** The approval id a decision on what waits must name, whatever its kind. */
export function inboxApprovalId(entry: InboxEntry): string | undefined {
  if (entry.kind === "command") return entry.command.approvalId;
  return entry.kind === "edit" ? entry.edit.approvalId : entry.call.approvalId;
}

/** Whether the MCP call waits for the person: pending, an approval id issued, not yet answered. */
export function mcpCallAwaitsPerson(call: McpCallView): boolean {
  return call.status === "pending" && call.approvalId !== undefined && call.decidedBy === undefined;
}

/** The inbox entry an event of a chat is about (a command, an edit, an MCP call), if any. */
export function inboxEntryOf(chatId: string, event: ChatEventBody): InboxEntry | undefined {
  if (event.type === "command-update") return { kind: "command", chatId, command: event.command };
  if (event.type === "edit-update") return { kind: "edit", chatId, edit: event.edit };
  if (event.type === "mcp-call-update") return { kind: "mcp-call", chatId, call: event.call };
  return undefined;
}

/** Whether an inbox entry waits for the person, whatever its kind. */
export function entryAwaitsPerson(entry: InboxEntry): boolean {
  if (entry.kind === "command") return awaitsPerson(entry.command);
  return entry.kind === "edit" ? editAwaitsPerson(entry.edit) : mcpCallAwaitsPerson(entry.call);
}

/** The title of a notification about a waiting MCP call, in every shell. */
export const WAITING_TOOL_TITLE = "Pi Desk: a tool call waits for your approval";

/** A notification's body for a waiting MCP call: the server and the tool, never the arguments. */
export function waitingToolBody(call: Pick<McpCallView, "server" | "tool" | "piTool">): string {
  return mcpCallLabel(call).slice(0, MAX_BODY);
}

/** A call in one line of English (the sidebar, a notification): `server/tool`, or Pi's own script or search. */
export function mcpCallLabel(call: Pick<McpCallView, "server" | "tool" | "piTool">): string {
  if (call.piTool === "codemode") return "Script (codemode)";
  if (call.piTool === "tool_search") return "Tool search";
  return `${call.server}/${call.tool}`;
}

/** A notification's body naming the chat it waits in, when the chat has a name. */
export function inChat(chatTitle: string | undefined, body: string): string {
  const name = chatTitle?.trim();
  return name ? `${name.slice(0, 60)} — ${body}` : body;
}
