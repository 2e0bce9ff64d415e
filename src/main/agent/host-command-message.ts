/* The message a command the host ran in a chat leaves in Pi's session file (apart from host-command.ts, which
   runs the command, so that the projection reads it without importing the command tools). */

/** The custom message type that tells the model of a command the host ran in its chat (a worktree's setup). */
export const HOST_COMMAND_MESSAGE_TYPE = "pi-desk-host-command";

/** What a host command's message keeps of it in Pi's session file, to show its card again. */
export interface HostCommandDetails {
  /** The command's id (its card's). */
  toolCallId: string;
  /** The command line. */
  command: string;
  /** Its result, as a tool result message would hold it. */
  result: { content: unknown; details?: unknown; isError: boolean };
}

/** The host command a stored message of the host's tells of, or undefined for any other message. */
export function hostCommandOf(message: unknown): HostCommandDetails | undefined {
  const m = message as { role?: string; customType?: string; details?: Partial<HostCommandDetails> };
  if (m.role !== "custom" || m.customType !== HOST_COMMAND_MESSAGE_TYPE) return undefined;
  const details = m.details;
  return typeof details?.toolCallId === "string" && typeof details.command === "string" && details.result
    ? (details as HostCommandDetails)
    : undefined;
}
