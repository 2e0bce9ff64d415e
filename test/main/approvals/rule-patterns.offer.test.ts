// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${...} is bash, not a template
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RuleBook } from "../../../src/main/approvals/rule-book";
import { describeRule, ruleOffer } from "../../../src/main/approvals/rule-patterns";
import { parseCommandLine } from "../../../src/main/run-command/shell/shell-parser";

const offer = async (line: string) => ruleOffer(await parseCommandLine(line));

describe("ruleOffer", () => {
  it("offers the exact line and each word prefix of a single command, shortest first", async () => {
    expect(await offer("npm run test --watch")).toEqual({
      exact: "npm run test --watch",
      prefixes: ["npm run", "npm run test"],
      // npm is in the argument table (--script-shell, exec, …), so its prefixes leave those out.
      except: ["runs"],
    });
    expect(await offer("  ls -la src  ")).toEqual({ exact: "ls -la src", prefixes: ["ls", "ls -la"] });
  });

  it("leaves out the full command only when it is the exact line", async () => {
    // The redirection makes the exact line more than its words, so the full argv is a distinct choice.
    expect(await offer("npm test 2>&1")).toEqual({
      exact: "npm test 2>&1",
      prefixes: ["npm test"],
      except: ["runs"],
    });
    expect(await offer("ls   -la")).toEqual({ exact: "ls   -la", prefixes: ["ls"] });
  });

  it("writes prefixes with the words as written, so they parse back to the same words", async () => {
    const result = await offer(`git commit -m "fix  the bug" --quiet`);
    expect(result?.prefixes).toEqual(["git commit", "git commit -m", `git commit -m "fix  the bug"`]);
  });

  it("skips a prefix that ends at `--`", async () => {
    expect((await offer("npm test -- --watch"))?.prefixes).toEqual(["npm test"]);
  });

  it("offers only the exact line for several commands", async () => {
    expect(await offer("npm test && npm run lint")).toEqual({
      exact: "npm test && npm run lint",
      prefixes: [],
    });
    expect(await offer("git log | head -n 5")).toEqual({ exact: "git log | head -n 5", prefixes: [] });
  });

  it.each([
    ["a substitution", "npm test $(id)"],
    ["a variable", "echo $HOME"],
    ["a glob", "ls *.ts"],
    ["a redirection to a file", "npm test > out.txt"],
    ["an assignment", "CI=1 npm test"],
    ["a wrapper", "timeout 5 npm test"],
    ["a subshell", "(npm test)"],
    ["background", "npm test &"],
    ["a comment", "npm test # done"],
    ["several lines", "npm test\nnpm run lint"],
    ["a continued line", "npm \\\n test"],
    ["a parse error", 'echo "unterminated'],
    ["nothing", "   "],
  ])("offers nothing for a line with %s", async (_what, line) => {
    expect(await offer(line)).toBeUndefined();
  });

  it("never offers a prefix that lets a shell or interpreter run anything", async () => {
    expect(await offer("node scripts/build.js --prod")).toEqual({
      exact: "node scripts/build.js --prod",
      prefixes: ["node scripts/build.js"],
    });
    // The parser already reads shells and sudo as wrappers of code it cannot see: no offer at all.
    expect(await offer("bash build.sh")).toBeUndefined();
    expect(await offer("sudo ls")).toBeUndefined();
    expect(await offer("node -e 1")).toEqual({ exact: "node -e 1", prefixes: [] });
    expect((await offer("python3 -m pytest -q"))?.prefixes).toEqual(["python3 -m pytest"]);
    for (const line of ["sh x.sh", "xargs rm", "sudo ls", "npx vitest", "perl -e 1", "eval ls", "env"]) {
      const prefixes = (await offer(line))?.prefixes ?? [];
      const program = line.split(" ")[0];
      expect(prefixes, line).not.toContain(program);
    }
  });

  it("offers a many-purpose tool only with what it does, never a bare one or one that runs anything", async () => {
    // `npm exec` is in the argument table (it runs another program): its line is offered exactly, never as a
    // prefix; a person who wants "npm exec cowsay ..." writes that rule in Settings.
    expect((await offer("npm exec cowsay hi"))?.prefixes).toEqual([]);
    expect((await offer("npm run build -- --watch"))?.prefixes).toEqual(["npm run", "npm run build"]);
    expect((await offer("git -c core.pager=less log"))?.prefixes).toEqual([]);
    expect((await offer("make test"))?.prefixes).toEqual([]);
    expect((await offer("go run ./cmd/app -v"))?.prefixes).toEqual(["go run ./cmd/app"]);
    expect((await offer("cargo build --release"))?.prefixes).toEqual(["cargo build"]);
  });

  describe("every offer is a rule the book accepts", () => {
    let dir: string | undefined;
    afterEach(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it.each([
      "npm run test --watch",
      `git commit -m "fix  the bug" --quiet`,
      "npm test 2>&1 | head",
      "node scripts/build.js",
      "echo e\\ f 'x  y'",
    ])("%s", async (line) => {
      dir = await mkdtemp(join(tmpdir(), "pi-desk-rules-"));
      const book = await RuleBook.open({ file: join(dir, "rules.json") });
      const parsed = await parseCommandLine(line);
      const result = ruleOffer(parsed);
      expect(result).toBeDefined();
      const exact = await book.add({
        effect: "allow",
        match: "exact",
        pattern: result?.exact ?? "",
        scope: "session",
      });
      expect(book.decide(parsed)).toEqual({ effect: "allow", rule: exact });
      for (const pattern of result?.prefixes ?? []) {
        book.clearSessionRules();
        const rule = await book.add({ effect: "allow", match: "prefix", pattern, scope: "session" });
        if (parsed.commands.length === 1) expect(book.decide(parsed)).toEqual({ effect: "allow", rule });
      }
    });
  });
});

describe("describeRule", () => {
  it("reads as the person would say it", () => {
    const rule = {
      id: "r1",
      effect: "allow",
      match: "prefix",
      pattern: "npm test",
      scope: "workspace",
      createdAt: 1,
    } as const;
    expect(describeRule(rule)).toBe(`allow "npm test" (prefix, workspace)`);
    expect(
      describeRule({ ...rule, effect: "deny", match: "exact", pattern: 'echo "hi"', scope: "session" }),
    ).toBe(`deny "echo \\"hi\\"" (exact, session)`);
  });
});
