import type { ChangeRecords } from "../changes";

/**
 * The keys a chat's commands and edits are recorded under in its workspace's change records, which all the
 * workspace's chats share. A tool call id is only its chat's own (the model chooses it: two chats may both
 * have a "call_1"), so a record is kept under the chat's Pi session id and the call's id; records written
 * before chats shared a workspace, under the call's id alone, are still found.
 */
export class RecordKeys {
  constructor(
    /** The chat's Pi session id, read when a key is needed (the session is made after its tools). */
    private readonly scope: () => string,
    private readonly records: Pick<ChangeRecords, "has">,
  ) {}

  /** The key a new record of this command is written under. */
  forNew(commandId: string): string {
    return `${this.scope()}:${commandId}`;
  }

  /** The key this command's record is kept under: its chat's, else an older record's plain id. */
  of(commandId: string): string {
    const scoped = this.forNew(commandId);
    return this.records.has(scoped) || !this.records.has(commandId) ? scoped : commandId;
  }

  /** Whether this command's record is still kept. */
  has(commandId: string): boolean {
    return this.records.has(this.forNew(commandId)) || this.records.has(commandId);
  }

  /** The command id a key names when it is this chat's; a plain (older) key as it is; another chat's: undefined. */
  commandOf(key: string): string | undefined {
    const prefix = `${this.scope()}:`;
    if (key.startsWith(prefix)) return key.slice(prefix.length);
    return this.ownedByAChat(key) ? undefined : key;
  }

  /** Whether a key is of the scoped form "<session id>:<call id>" (a Pi session id is a UUID). */
  private ownedByAChat(key: string): boolean {
    return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:/i.test(key);
  }
}
