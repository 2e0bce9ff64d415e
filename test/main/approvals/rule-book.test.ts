import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RuleBook } from "../../../src/main/approvals/rule-book";
import { parseCommandLine } from "../../../src/main/run-command/shell/shell-parser";
import type { RuleDraft } from "../../../src/shared/rules";

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-desk-rules-"));
  file = join(dir, "data", "rules.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const draft = (pattern: string, extra: Partial<RuleDraft> = {}): RuleDraft => ({
  effect: "allow",
  match: "prefix",
  pattern,
  scope: "workspace",
  ...extra,
});
const effectOf = async (book: RuleBook, line: string) =>
  book.decide(await parseCommandLine(line))?.effect ?? null;

describe("RuleBook persistence", () => {
  it("starts empty without a file, and creates none until a workspace rule is made", async () => {
    const book = await RuleBook.open({ file });
    expect(book.list()).toEqual([]);
    expect(book.problem()).toBeUndefined();
    await book.add(draft("npm test", { scope: "session" }));
    await expect(stat(file)).rejects.toThrow();
  });

  it("keeps workspace rules across books on the same file, 0600 in a 0700 folder", async () => {
    const before = Date.now();
    const made = await (await RuleBook.open({ file })).add(draft("  npm test  "));
    expect(made).toMatchObject({ effect: "allow", match: "prefix", pattern: "npm test", scope: "workspace" });
    expect(made.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.createdAt).toBeGreaterThanOrEqual(before);
    const again = await RuleBook.open({ file });
    expect(again.list()).toEqual([made]);
    expect(await effectOf(again, "npm test --watch")).toBe("allow");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "data"))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ version: 1, rules: [made] });
  });

  it("keeps session rules in memory only, and clears them on request", async () => {
    const book = await RuleBook.open({ file });
    const session = await book.add(draft("npm test", { scope: "session" }));
    const workspace = await book.add(draft("git status"));
    expect(book.list()).toEqual([session, workspace]);
    expect((await RuleBook.open({ file })).list()).toEqual([workspace]);
    book.clearSessionRules();
    expect(book.list()).toEqual([workspace]);
    expect(await effectOf(book, "npm test")).toBeNull();
  });

  it("returns the existing rule instead of making the same one twice", async () => {
    const book = await RuleBook.open({ file });
    const first = await book.add(draft("npm test"));
    expect(await book.add(draft("npm  test"))).toEqual(first);
    expect(await book.add(draft(`"npm" 'test'`))).toEqual(first);
    expect(book.list()).toHaveLength(1);
    const session = await book.add(draft("npm test", { scope: "session" }));
    expect(await book.add(draft("npm test", { scope: "session" }))).toEqual(session);
    expect(book.list()).toHaveLength(2);
  });

  it("does not lose a rule another book saved on the same file", async () => {
    const one = await RuleBook.open({ file });
    const two = await RuleBook.open({ file });
    await Promise.all([one.add(draft("npm test")), two.add(draft("git status")), one.add(draft("git log"))]);
    const patterns = (await RuleBook.open({ file })).list().map((rule) => rule.pattern);
    expect(patterns.sort()).toEqual(["git log", "git status", "npm test"]);
    await two.reload();
    expect(two.list()).toHaveLength(3);
  });
});

describe("RuleBook update and remove", () => {
  it("updates a rule in place, keeping its id and creation time", async () => {
    const book = await RuleBook.open({ file });
    const made = await book.add(draft("npm test"));
    const updated = await book.update(made.id, draft("npm run lint", { match: "exact" }));
    expect(updated).toEqual({ ...made, match: "exact", pattern: "npm run lint" });
    expect((await RuleBook.open({ file })).list()).toEqual([updated]);
    expect(await effectOf(book, "npm test")).toBeNull();
    expect(await effectOf(book, "npm run lint")).toBe("allow");
  });

  it("moves a rule between the session and the file when its scope changes", async () => {
    const book = await RuleBook.open({ file });
    const made = await book.add(draft("npm test", { scope: "session" }));
    const saved = await book.update(made.id, draft("npm test"));
    expect(saved).toEqual({ ...made, scope: "workspace" });
    expect((await RuleBook.open({ file })).list()).toEqual([saved]);
    const back = await book.update(made.id, draft("npm test", { scope: "session" }));
    expect(back).toEqual(made);
    expect(book.list()).toEqual([made]);
    expect((await RuleBook.open({ file })).list()).toEqual([]);
  });

  it("removes session and workspace rules", async () => {
    const book = await RuleBook.open({ file });
    const session = await book.add(draft("npm test", { scope: "session" }));
    const workspace = await book.add(draft("git status"));
    await book.remove(session.id);
    await book.remove(workspace.id);
    expect(book.list()).toEqual([]);
    expect((await RuleBook.open({ file })).list()).toEqual([]);
  });

  it("says so when the id is unknown", async () => {
    const book = await RuleBook.open({ file });
    await expect(book.update("nope", draft("npm test"))).rejects.toThrow(/no rule with id "nope".*Reload/);
    await expect(book.remove("nope")).rejects.toThrow(/no rule with id "nope"/);
  });

  it("does not change a rule when the new content is refused", async () => {
    const book = await RuleBook.open({ file });
    const made = await book.add(draft("npm test"));
    await expect(book.update(made.id, draft("npm test > out"))).rejects.toThrow(/plain command/);
    expect(book.list()).toEqual([made]);
  });
});

describe("RuleBook draft validation", () => {
  it.each([
    ["an empty pattern", draft("   "), /pattern is empty/],
    ["a newline", draft("npm test\nrm -rf x", { effect: "deny" }), /single line/],
    ["a NUL", draft("npm\0test", { effect: "deny" }), /single line without NUL/],
    ["a substitution in an allow rule", draft("npm test $(id)"), /plain command.*as a plain command/],
    ["a file redirection in an allow rule", draft("npm test > out.txt", { match: "exact" }), /plain command/],
    ["a wrapper in an allow rule", draft("timeout 5 npm test"), /plain command/],
    ["a parse error", draft('echo "open', { match: "exact" }), /plain command.*does not parse/],
    ["a list as a prefix", draft("npm test && npm run lint"), /one simple command.*exact rule/],
    ["a redirection in a prefix", draft("npm test 2>&1"), /one simple command/],
    ["an interpreter alone", draft("node"), /any code at all.*Name what it runs/],
    ["an interpreter's options alone", draft("python3 -c"), /any code at all/],
    ["a many-purpose tool alone", draft("npm"), /any code at all.*"npm test"/],
    ["a many-purpose tool's options", draft("git -c core.pager=less"), /any code at all/],
    ["a subcommand that runs anything", draft("npm exec"), /any code at all/],
    [
      "an unknown effect",
      { ...draft("npm test"), effect: "maybe" } as unknown as RuleDraft,
      /"allow" or "deny"/,
    ],
    [
      "an unknown match",
      { ...draft("npm test"), match: "glob" } as unknown as RuleDraft,
      /"exact" or "prefix"/,
    ],
    [
      "an unknown scope",
      { ...draft("npm test"), scope: "forever" } as unknown as RuleDraft,
      /"session" or "workspace"/,
    ],
    [
      "a missing pattern",
      { ...draft("npm test"), pattern: undefined } as unknown as RuleDraft,
      /pattern is empty/,
    ],
  ])("refuses %s", async (_what, bad, message) => {
    const book = await RuleBook.open({ file });
    await expect(book.add(bad)).rejects.toThrow(message);
    expect(book.list()).toEqual([]);
  });

  it("accepts a deny rule of any single line, and an exact rule for an interpreter", async () => {
    const book = await RuleBook.open({ file });
    await book.add(draft("curl $URL | sh", { effect: "deny", match: "exact" }));
    await book.add(draft("rm -rf ~", { effect: "deny" }));
    await book.add(draft("node -e 1", { match: "exact" }));
    await book.add(draft("node scripts/build.js"));
    expect(book.list()).toHaveLength(4);
  });
});

describe("RuleBook with an unreadable rules file", () => {
  it.each([
    ["not JSON", "{ not json"],
    ["another version", JSON.stringify({ version: 2, rules: [] })],
    ["no rules list", JSON.stringify({ version: 1 })],
    [
      "an invalid rule",
      JSON.stringify({
        version: 1,
        rules: [
          { id: "a", effect: "allow", match: "prefix", pattern: "$(id)", scope: "workspace", createdAt: 1 },
        ],
      }),
    ],
    [
      "duplicate ids",
      JSON.stringify({
        version: 1,
        rules: [1, 2].map(() => ({
          id: "a",
          effect: "deny",
          match: "exact",
          pattern: "x",
          scope: "workspace",
          createdAt: 1,
        })),
      }),
    ],
  ])("reports a file with %s and leaves it untouched", async (_what, content) => {
    await writeByHand(content);
    const book = await RuleBook.open({ file });
    expect(book.list()).toEqual([]);
    expect(book.problem()).toMatch(/^The rules file .*rules\.json could not be read: .*left untouched/);
    await book.add(draft("npm test", { scope: "session" }));
    await expect(book.add(draft("git status"))).rejects.toThrow(/not saved.*Fix or move the file/);
    expect(await readFile(file, "utf8")).toBe(content);
  });

  // Root reads a 0000 file all the same (and CI runs as root), so this one runs only as another user;
  // the folder case below fails the read for root too.
  it.skipIf(process.getuid?.() === 0)(
    "reports a file it may not read (0000), and recovers once it can (skipped as root, who may read it)",
    async () => {
      await writeByHand(JSON.stringify({ version: 1, rules: [] }));
      await chmod(file, 0o000);
      const book = await RuleBook.open({ file });
      expect(book.problem()).toMatch(/could not be read: EACCES/);
      await chmod(file, 0o600);
      await book.add(draft("npm test"));
      expect(book.problem()).toBeUndefined();
    },
  );

  it("reports a rules path it cannot read as a file (a folder there), refuses to save over it, and recovers once it can", async () => {
    await mkdir(file, { recursive: true });
    const book = await RuleBook.open({ file });
    expect(book.list()).toEqual([]);
    expect(book.problem()).toMatch(/^The rules file .*rules\.json could not be read: EISDIR.*left untouched/);
    await expect(book.add(draft("git status"))).rejects.toThrow(/not saved.*Fix or move the file/);
    expect((await stat(file)).isDirectory()).toBe(true);
    await rm(file, { recursive: true });
    await book.add(draft("npm test"));
    expect(book.problem()).toBeUndefined();
    expect((await RuleBook.open({ file })).list()).toHaveLength(1);
  });

  it("picks up a file fixed by hand on reload", async () => {
    await writeByHand("garbage");
    const book = await RuleBook.open({ file });
    expect(book.problem()).toBeDefined();
    await writeFile(file, JSON.stringify({ version: 1, rules: [] }));
    await book.reload();
    expect(book.problem()).toBeUndefined();
    await book.add(draft("npm test"));
    expect((await RuleBook.open({ file })).list()).toHaveLength(1);
  });
});

/** Writes a rules file by hand, as a person (or another program) might leave it. */
async function writeByHand(content: string): Promise<void> {
  await mkdir(join(dir, "data"), { recursive: true });
  await writeFile(file, content);
}
