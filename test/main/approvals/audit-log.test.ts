import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuditLog } from "../../../src/main/approvals/audit-log";
import type { AuditEntry } from "../../../src/shared/rules";

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-desk-audit-"));
  file = join(dir, "data", "audit.jsonl");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (n: number, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  at: 1_000 + n,
  sessionId: "s1",
  commandId: `c${n}`,
  command: `echo ${n}`,
  event: "approved",
  by: "person",
  ...extra,
});

describe("AuditLog", () => {
  it("reads nothing from a log not written yet", async () => {
    expect(await new AuditLog({ file }).read()).toEqual([]);
  });

  it("appends one JSON line per entry and reads them newest first", async () => {
    const log = new AuditLog({ file });
    for (let n = 0; n < 3; n++) await log.append(entry(n));
    expect((await log.read()).map((e) => e.commandId)).toEqual(["c2", "c1", "c0"]);
    const lines = (await readFile(file, "utf8")).split("\n");
    expect(lines).toHaveLength(4);
    expect(lines.at(-1)).toBe("");
    expect(JSON.parse(lines[0] as string)).toEqual(entry(0));
  });

  it("creates the log 0600 in a 0700 folder", async () => {
    await new AuditLog({ file }).append(entry(0));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "data"))).mode & 0o777).toBe(0o700);
  });

  it("only ever appends: what was there stays byte for byte", async () => {
    const log = new AuditLog({ file });
    await log.append(entry(0));
    const before = await readFile(file, "utf8");
    await log.append(entry(1));
    expect((await readFile(file, "utf8")).startsWith(before)).toBe(true);
  });

  it("keeps every field of an entry, a newline in a reason included, and nothing else", async () => {
    const log = new AuditLog({ file });
    const full = entry(0, {
      event: "finished",
      by: "rule",
      rule: `allow "echo" (prefix, session)`,
      reason: "two\nlines",
      edited: true,
      status: "failed",
      exitCode: 2,
    });
    await log.append({ ...full, secret: "token" } as AuditEntry);
    expect(await log.read()).toEqual([full]);
    expect(await readFile(file, "utf8")).not.toContain("token");
    expect((await readFile(file, "utf8")).split("\n")).toHaveLength(2);
  });

  it("filters by command, reason, rule, status and event, ignoring case", async () => {
    const log = new AuditLog({ file });
    await log.append(entry(0, { command: "npm TEST" }));
    await log.append(entry(1, { event: "denied", reason: "Too Risky" }));
    await log.append(entry(2, { by: "rule", rule: `allow "git log" (prefix, workspace)` }));
    await log.append(entry(3, { event: "finished", status: "timed-out", exitCode: null }));
    await log.append(entry(4, { sessionId: "test-session", commandId: "test-id" }));
    const ids = async (query: string) => (await log.read({ query })).map((e) => e.commandId);
    expect(await ids("npm test")).toEqual(["c0"]);
    expect(await ids("risky")).toEqual(["c1"]);
    expect(await ids("GIT LOG")).toEqual(["c2"]);
    expect(await ids("timed")).toEqual(["c3"]);
    expect(await ids("denied")).toEqual(["c1"]);
    expect(await ids("test")).toEqual(["c0"]);
    expect(await ids("  ")).toHaveLength(5);
  });

  it("returns at most `limit` entries, the newest, 500 by default", async () => {
    const log = new AuditLog({ file });
    const lines = Array.from({ length: 600 }, (_, n) => `${JSON.stringify(entry(n))}\n`).join("");
    await mkdir(join(dir, "data"), { recursive: true });
    await writeFile(file, lines);
    const all = await log.read();
    expect(all).toHaveLength(500);
    expect(all[0]?.commandId).toBe("c599");
    expect(all.at(-1)?.commandId).toBe("c100");
    expect((await log.read({ limit: 2 })).map((e) => e.commandId)).toEqual(["c599", "c598"]);
    expect(await log.read({ limit: 0 })).toEqual([]);
    expect((await log.read({ query: "echo 1", limit: 3 })).map((e) => e.commandId)).toEqual([
      "c199",
      "c198",
      "c197",
    ]);
    await expect(log.read({ limit: -1 })).rejects.toThrow(/whole number/);
    await expect(log.read({ limit: 1.5 })).rejects.toThrow(/whole number/);
  });

  it("reads a log larger than one chunk, with multi-byte text across chunk edges", async () => {
    const log = new AuditLog({ file });
    const command = `echo ${"é😀".repeat(3000)}`;
    for (let n = 0; n < 40; n++) await log.append(entry(n, { command }));
    const read = await log.read();
    expect(read).toHaveLength(40);
    expect(read.every((e) => e.command === command)).toBe(true);
    expect(read[0]?.commandId).toBe("c39");
  });

  it("keeps 100 concurrent appends whole: every line valid JSON, none lost", async () => {
    const one = new AuditLog({ file });
    const two = new AuditLog({ file });
    await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        (n % 2 ? one : two).append(entry(n, { command: "x".repeat(5000) })),
      ),
    );
    const lines = (await readFile(file, "utf8")).split("\n").filter(Boolean);
    expect(lines).toHaveLength(100);
    const ids = lines.map((line) => (JSON.parse(line) as AuditEntry).commandId);
    expect(new Set(ids).size).toBe(100);
    expect(await one.read()).toHaveLength(100);
  });

  it("skips a half-written last line and malformed lines, and starts the next entry on a line of its own", async () => {
    const log = new AuditLog({ file });
    await log.append(entry(0));
    await appendFile(file, `not json\n{"at":1}\n[]\n${JSON.stringify(entry(1)).slice(0, 30)}`);
    expect((await log.read()).map((e) => e.commandId)).toEqual(["c0"]);
    const later = new AuditLog({ file });
    await later.append(entry(2));
    expect((await later.read()).map((e) => e.commandId)).toEqual(["c2", "c0"]);
  });
});
