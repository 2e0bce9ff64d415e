import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import type { AuditEntry } from "../../shared/rules";
import { withFileLock } from "../storage/atomic-file";

/** How many entries `read` returns when not told. */
export const DEFAULT_AUDIT_LIMIT = 500;

/** Bytes read at a time when walking the log backwards. */
const CHUNK_BYTES = 64 * 1024;

/** The fields an entry may carry: anything else a caller passes is not written. */
const FIELDS = [
  "at",
  "sessionId",
  "commandId",
  "kind",
  "command",
  "tool",
  "path",
  "event",
  "by",
  "rule",
  "reason",
  "edited",
  "status",
  "exitCode",
  "host",
  "port",
  "allowed",
  "bytesUp",
  "bytesDown",
  "refusal",
  "server",
  "arguments",
  "script",
  "scriptSha256",
  "parentToolCallId",
  "files",
] as const satisfies readonly (keyof AuditEntry)[];

/** The fields a query searches. */
const SEARCHED = [
  "command",
  "host",
  "path",
  "server",
  "tool",
  "reason",
  "rule",
  "status",
  "event",
] as const satisfies readonly (keyof AuditEntry)[];

/** What to read from the log. */
export interface AuditQuery {
  /** Case-insensitive text to find in an entry's command, reason, rule, status or event. */
  query?: string;
  /** The most entries to return (default 500). */
  limit?: number;
}

/**
 * A workspace's append-only record of every decision about a command, one JSON object per line. It is
 * never rewritten or truncated; a line left half-written by a crash is skipped when reading.
 */
export class AuditLog {
  private readonly file: string;
  private checkedTail = false;

  constructor(options: {
    /** The log file (JSON lines); created 0600 in a 0700 folder on the first append. */
    file: string;
  }) {
    this.file = options.file;
  }

  /** Appends one entry as one line. Appends to one file are serialized, so lines never interleave. */
  async append(entry: AuditEntry): Promise<void> {
    const record: Partial<Record<keyof AuditEntry, unknown>> = {};
    for (const field of FIELDS) if (entry[field] !== undefined) record[field] = entry[field];
    // JSON.stringify escapes newlines inside strings, so an entry is always exactly one line.
    const line = `${JSON.stringify(record)}\n`;
    await withFileLock(this.file, async () => {
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      const handle = await open(this.file, "a", 0o600);
      try {
        // A crash mid-append can leave a last line without its newline; start on a fresh line so this
        // entry is not glued to that fragment and lost with it.
        const prefix = this.checkedTail ? "" : await missingNewline(this.file);
        this.checkedTail = true;
        await handle.appendFile(prefix + line, "utf8");
      } finally {
        await handle.close();
      }
    });
  }

  /** Entries newest first, filtered by `query`, at most `limit` (default 500). A missing log is empty. */
  async read(options: AuditQuery = {}): Promise<AuditEntry[]> {
    const limit = options.limit ?? DEFAULT_AUDIT_LIMIT;
    if (!Number.isInteger(limit) || limit < 0) {
      throw new Error(`The audit log limit must be a whole number of entries, 0 or more; got ${limit}.`);
    }
    const needle = options.query?.trim().toLowerCase() ?? "";
    const found: AuditEntry[] = [];
    if (limit === 0) return found;
    for await (const text of linesBackwards(this.file)) {
      const entry = parseEntry(text);
      if (!entry) continue;
      if (
        needle &&
        !SEARCHED.some((field) =>
          String(entry[field] ?? "")
            .toLowerCase()
            .includes(needle),
        )
      ) {
        continue;
      }
      found.push(entry);
      if (found.length >= limit) break;
    }
    return found;
  }
}

/** "\n" when the file is non-empty and does not end with one, else "". */
async function missingNewline(file: string): Promise<string> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size === 0) return "";
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a ? "" : "\n";
  } finally {
    await handle.close();
  }
}

/**
 * The file's lines from the last to the first, read in chunks from the end, so showing the newest
 * entries of a long log does not read all of it. Lines are split on the newline byte, which never
 * occurs inside a multi-byte UTF-8 character, so chunk edges cannot cut a character in two.
 */
async function* linesBackwards(file: string): AsyncGenerator<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    let position = (await handle.stat()).size;
    let rest = Buffer.alloc(0);
    while (position > 0) {
      const size = Math.min(CHUNK_BYTES, position);
      position -= size;
      const chunk = Buffer.alloc(size);
      await handle.read(chunk, 0, size, position);
      rest = Buffer.concat([chunk, rest]);
      let end = rest.length;
      // Only the new chunk can hold newlines: what was left over from the last one had none.
      for (let i = size - 1; i >= 0; i--) {
        if (rest[i] !== 0x0a) continue;
        if (i + 1 < end) yield rest.subarray(i + 1, end).toString("utf8");
        end = i;
      }
      rest = rest.subarray(0, end);
    }
    if (rest.length > 0) yield rest.toString("utf8");
  } finally {
    await handle.close();
  }
}

/** An entry from one line, or undefined for a line that is not one (half-written, edited by hand). */
function parseEntry(text: string): AuditEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const entry = value as Partial<AuditEntry> | null;
  const valid =
    typeof entry === "object" &&
    entry !== null &&
    typeof entry.at === "number" &&
    (typeof entry.command === "string" ||
      (entry.kind === "file-edit" && typeof entry.path === "string") ||
      (entry.kind === "mcp-call" && typeof entry.server === "string" && typeof entry.tool === "string") ||
      (entry.kind === "rewind" && typeof entry.files === "object")) &&
    typeof entry.event === "string" &&
    typeof entry.sessionId === "string" &&
    typeof entry.commandId === "string";
  return valid ? (entry as AuditEntry) : undefined;
}
