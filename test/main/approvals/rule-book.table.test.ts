import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RuleBook } from "../../../src/main/approvals/rule-book";
import { ruleOffer } from "../../../src/main/approvals/rule-patterns";
import { ARGUMENT_TABLE, type ArgumentEntry } from "../../../src/main/run-command/policy/argument-table";
import { parseCommandLine } from "../../../src/main/run-command/shell/shell-parser";
import { BYPASSES, HARMLESS } from "./fixtures/rule-corpus";

// What an "always allow" prefix covers once the argument table is in force: never an argument from the
// table after its prefix; deny rules and exact rules as before; saved rules kept and marked.

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-desk-rule-table-"));
  file = join(dir, "rules.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A book holding these rules, as if saved before the argument table (no tableVersion). */
async function savedBook(patterns: string[]): Promise<RuleBook> {
  const rules = patterns.map((pattern, i) => ({
    id: `r${i}`,
    effect: "allow",
    match: "prefix",
    pattern,
    scope: "workspace",
    createdAt: 1,
  }));
  await writeFile(file, JSON.stringify({ version: 1, rules }));
  return RuleBook.open({ file });
}

const parsed = (line: string) => parseCommandLine(line);

describe("a prefix rule and the argument table", () => {
  it.each(BYPASSES.map((item) => [item.rule, item.command, item] as const))(
    "%j does not cover %j, and says which argument kept it from applying",
    async (rule, command, item) => {
      const book = item.legacy ? await savedBook([rule]) : await RuleBook.open({ file });
      if (!item.legacy) await book.add({ effect: "allow", match: "prefix", pattern: rule, scope: "session" });
      const line = await parsed(command);
      expect(book.decide(line)).toBeNull();
      expect(book.missedByTable(line)?.notApplied).toMatchObject({ pattern: rule });
    },
  );

  it.each(HARMLESS.map((item) => [item.rule, item.command, item] as const))(
    "%j alone still covers %j",
    async (rule, command, item) => {
      const book = item.legacy ? await savedBook([rule]) : await RuleBook.open({ file });
      if (!item.legacy) await book.add({ effect: "allow", match: "prefix", pattern: rule, scope: "session" });
      expect(book.decide(await parsed(command))).toMatchObject({ effect: "allow", rule: { pattern: rule } });
    },
  );

  it("tells the card the issue's words: `find .` is allowed, but -exec runs another program", async () => {
    const book = await RuleBook.open({ file });
    await book.add({ effect: "allow", match: "prefix", pattern: "find .", scope: "session" });
    const miss = book.missedByTable(await parsed("find . -maxdepth 0 -exec touch M \\;"));
    expect(miss?.notApplied).toEqual({ pattern: "find .", argument: "-exec", effect: "runs" });
    expect(miss?.why).toBe("-exec runs another program for each file");
    // Covered by another rule: nothing to explain.
    await book.add({
      effect: "allow",
      match: "exact",
      pattern: "find . -maxdepth 0 -exec touch M \\;",
      scope: "session",
    });
    expect(book.decide(await parsed("find . -maxdepth 0 -exec touch M \\;"))?.effect).toBe("allow");
  });

  it("checks every command of a list: the second one's rule must cover it too", async () => {
    const book = await RuleBook.open({ file });
    await book.add({ effect: "allow", match: "prefix", pattern: "git log", scope: "session" });
    await book.add({ effect: "allow", match: "prefix", pattern: "sort", scope: "session" });
    expect(book.decide(await parsed("git log -1 && sort a.txt"))?.effect).toBe("allow");
    expect(book.decide(await parsed("git log -1 && sort -o M a.txt"))).toBeNull();
    expect(book.decide(await parsed("git log -1 | sort -o M"))).toBeNull();
    expect(book.missedByTable(await parsed("git log -1 | sort -o M"))?.notApplied).toMatchObject({
      pattern: "sort",
      argument: "-o",
      effect: "writes",
    });
  });

  it("leaves deny rules as they were: they still win, table or not", async () => {
    const book = await RuleBook.open({ file });
    await book.add({ effect: "allow", match: "prefix", pattern: "find .", scope: "session" });
    await book.add({ effect: "deny", match: "prefix", pattern: "find . -maxdepth", scope: "session" });
    expect(book.decide(await parsed("find . -maxdepth 0 -exec touch M \\;"))?.effect).toBe("deny");
    expect(book.decide(await parsed("find . -maxdepth 1"))?.effect).toBe("deny");
    expect(book.decide(await parsed("find . -name a"))?.effect).toBe("allow");
  });

  it("keeps an exact rule exact: the whole line the person read runs, one more argument does not", async () => {
    const book = await RuleBook.open({ file });
    await book.add({ effect: "allow", match: "exact", pattern: "sort -o out.txt a.txt", scope: "session" });
    expect(book.decide(await parsed("sort -o out.txt a.txt"))?.effect).toBe("allow");
    expect(book.decide(await parsed("sort -o out.txt a.txt b.txt"))).toBeNull();
  });

  it.each([
    ["find . -exec", /ends in -exec, which runs another program/],
    ["sort -o", /ends in -o, which deletes or writes a file/],
    ["ssh -F", /ends in -F/],
    ["git difftool", /ends in difftool/],
    ["rm", /every argument of rm names a file it changes/],
    ["cp a.txt", /every argument of cp/],
  ])("refuses a new allow prefix %j, saying why", async (pattern, why) => {
    const book = await RuleBook.open({ file });
    const draft = { effect: "allow", match: "prefix", pattern, scope: "session" } as const;
    await expect(book.add(draft)).rejects.toThrow(why);
    await expect(book.add(draft)).rejects.toThrow(/Use an exact rule/);
    await book.add({ ...draft, effect: "deny" });
  });

  it("keeps saved rules, marks the ones the table narrows, and clears the mark when one is saved again", async () => {
    const book = await savedBook(["find .", "ls -la", "find . -exec", "rm"]);
    expect(book.problem()).toBeUndefined();
    const byPattern = Object.fromEntries(book.list().map((rule) => [rule.pattern, rule]));
    expect(byPattern["find ."]?.narrowed).toEqual(["runs", "writes"]);
    expect(byPattern["find . -exec"]?.narrowed).toEqual(["runs", "writes"]);
    expect(byPattern.rm?.narrowed).toEqual(["writes"]);
    expect(byPattern["ls -la"]?.narrowed).toBeUndefined();
    // Still in force for what it was made for.
    expect(book.decide(await parsed("find . -name a.txt"))?.rule.pattern).toBe("find .");
    await book.update("r0", { effect: "allow", match: "prefix", pattern: "find .", scope: "workspace" });
    expect(book.list().find((rule) => rule.id === "r0")?.narrowed).toBeUndefined();
    const stored = JSON.parse(await readFile(file, "utf8")) as { rules: Record<string, unknown>[] };
    expect(stored.rules.find((rule) => rule.id === "r0")).toMatchObject({ tableVersion: 1 });
    expect(stored.rules.some((rule) => "narrowed" in rule)).toBe(false);
    // A new rule is made under the table: no mark.
    const added = await book.add({ effect: "allow", match: "prefix", pattern: "sort", scope: "workspace" });
    expect(added.narrowed).toBeUndefined();
    expect(
      (await RuleBook.open({ file })).list().find((rule) => rule.pattern === "sort")?.narrowed,
    ).toBeUndefined();
  });
});

describe("offers and the argument table", () => {
  const offer = async (line: string) => ruleOffer(await parsed(line));

  it("offers a tool's prefixes with what they leave out", async () => {
    expect(await offer("find . -name a.txt")).toEqual({
      exact: "find . -name a.txt",
      prefixes: ["find", "find .", "find . -name"],
      except: ["runs", "writes"],
    });
    expect(await offer("ls -la")).toEqual({ exact: "ls -la", prefixes: ["ls"] });
  });

  it.each([
    ["find . -maxdepth 0 -exec touch M \\;", []],
    ["find . -name x.log -delete", []],
    ["sort -o M a.txt", []],
    ["git log --output=M", []],
    ["rm -rf build", []],
    ["tar -cf out.tar a.txt --checkpoint-action=exec=x", []],
    ["ssh -o BatchMode=yes host", ["ssh", "ssh -o", "ssh -o BatchMode=yes"]],
    ["ssh -o ProxyCommand=x host", []],
  ])("offers for %j only prefixes that cover it without naming a table argument", async (line, prefixes) => {
    const result = await offer(line);
    expect(result?.exact).toBe(line);
    expect(result?.prefixes).toEqual(prefixes);
  });
});

/** Strings some `pattern` row of the table matches. */
const PATTERN_SAMPLES = [
  'BEGIN{system("x")}',
  "s/a/b/e",
  "w out",
  "ext::sh -c x",
  "-Bdir",
  "@opts",
  "of=out",
  "-ni",
  "-fplugin=x.so",
  "--exec-path=x",
  "-Ofile",
];

/** How a row's arguments may be written: each a list of words. */
function spellings(entry: ArgumentEntry): string[][] {
  const value = entry.value ? "ProxyCommand=x" : "x";
  const out: string[][] = [];
  for (const name of entry.options ?? []) {
    out.push([name, value], [`${name}=${value}`]);
    if (name.startsWith("--") && name.length > 5)
      out.push([`${name.slice(0, Math.max(4, name.length - 2))}=${value}`]);
  }
  for (const letter of entry.letters ?? "") out.push([`-${letter}`, value], [`-${letter}${value}`]);
  for (const word of entry.words ?? []) out.push([word]);
  if (entry.pattern) for (const sample of PATTERN_SAMPLES) if (entry.pattern.test(sample)) out.push([sample]);
  if (entry.every) out.push(["out.txt"]);
  return out;
}

/** What a prefix for the program must start with to be a rule at all (a subcommand, a program text). */
const STARTERS: Record<string, string[]> = {
  git: ["log"],
  npm: ["test"],
  pnpm: ["test"],
  yarn: ["test"],
  sed: ["-n", "p"],
  awk: ["{print}"],
  gawk: ["{print}"],
  mawk: ["{print}"],
  nawk: ["{print}"],
};

// Rows that only apply in a place a prefix rule never extends into (before git's subcommand, as the
// subcommand or tar's first argument): the rule refuses such prefixes (runsAnyCode, tablePrefixProblem).
const EXTENDABLE = ARGUMENT_TABLE.filter(
  (entry) => !entry.beforeSubcommand && !entry.atSubcommand && !entry.firstArgument,
).flatMap((entry) =>
  entry.programs.flatMap((program) => spellings(entry).map((words) => ({ program, entry, words }))),
);

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
const HARMLESS_WORDS = ["a.txt", ".", "-n", "foo", "--quiet", "src/b.txt", "-1"];

it("never lets a harmless prefix cover an argument drawn from the table (fast-check)", async () => {
  let checked = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...EXTENDABLE),
      fc.array(fc.constantFrom(...HARMLESS_WORDS), { maxLength: 2 }),
      fc.array(fc.constantFrom(...HARMLESS_WORDS), { maxLength: 2 }),
      fc.array(fc.constantFrom(...HARMLESS_WORDS), { maxLength: 2 }),
      fc.boolean(),
      async ({ program, entry, words }, inPrefix, before, after, inList) => {
        const context = entry.after ? [entry.after[0] as string] : (STARTERS[program] ?? []);
        const prefix = [program, ...context, ...inPrefix];
        const book = await RuleBook.open({ file: join(dir, "none.json") });
        try {
          await book.add({
            effect: "allow",
            match: "prefix",
            pattern: prefix.map(quote).join(" "),
            scope: "session",
          });
          await book.add({ effect: "allow", match: "prefix", pattern: "true", scope: "session" });
        } catch {
          return; // a prefix the rules refuse anyway (runs any code, or ends in a table argument)
        }
        checked += 1;
        const command = [...prefix, ...before, ...words, ...after].map(quote).join(" ");
        const line = await parsed(inList ? `true && ${command}` : command);
        expect(book.decide(line), command).toBeNull();
        expect(book.missedByTable(line)?.notApplied.pattern, command).toBeDefined();
      },
    ),
    { numRuns: 400, seed: 20_261_201 },
  );
  expect(checked).toBeGreaterThan(200);
});
