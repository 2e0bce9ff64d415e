import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RuleBook } from "../../../src/main/approvals/rule-book";
import { parseCommandLine } from "../../../src/main/run-command/shell/shell-parser";
import type { RuleDraft } from "../../../src/shared/rules";

let dir: string;
let book: RuleBook;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pi-desk-rules-"));
  book = await RuleBook.open({ file: join(dir, "rules.json") });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rule = (effect: RuleDraft["effect"], match: RuleDraft["match"], pattern: string): Promise<unknown> =>
  book.add({ effect, match, pattern, scope: "session" });
const effectOf = async (line: string) => book.decide(await parseCommandLine(line))?.effect ?? null;

describe("RuleBook.decide", () => {
  it("decides nothing without rules", async () => {
    expect(await effectOf("npm test")).toBeNull();
  });

  it("matches an exact rule on the whole line, blanks between words aside", async () => {
    await rule("allow", "exact", "npm test");
    expect(await effectOf("npm test")).toBe("allow");
    expect(await effectOf("  npm \t test ")).toBe("allow");
    expect(await effectOf("npm test --watch")).toBeNull();
    expect(await effectOf("npm test 2>&1")).toBeNull();
  });

  it("keeps blanks inside quoted words significant for exact rules", async () => {
    await rule("allow", "exact", `git commit -m "a  b"`);
    expect(await effectOf(`git  commit -m "a  b"`)).toBe("allow");
    expect(await effectOf(`git commit -m "a b"`)).toBeNull();
    expect(await effectOf(`git commit -m a  b`)).toBeNull();
  });

  it("matches a prefix rule word by word, after quote removal", async () => {
    await rule("allow", "prefix", "npm test");
    expect(await effectOf("npm test")).toBe("allow");
    expect(await effectOf("npm test -- --watch")).toBe("allow");
    expect(await effectOf(`"npm" 'test'`)).toBe("allow");
    expect(await effectOf("npm testing")).toBeNull();
    expect(await effectOf("npm run test")).toBeNull();
    expect(await effectOf("npm")).toBeNull();
  });

  it("allows a list or pipeline only when every command is allowed", async () => {
    await rule("allow", "prefix", "npm test");
    expect(await effectOf("npm test && npm run lint")).toBeNull();
    expect(await effectOf("npm test | head")).toBeNull();
    await rule("allow", "prefix", "npm run lint");
    await rule("allow", "prefix", "head");
    expect(await effectOf("npm test && npm run lint")).toBe("allow");
    expect(await effectOf("npm test 2>&1 | head -n 5")).toBe("allow");
    expect(await effectOf("npm test && rm -rf x")).toBeNull();
  });

  it("names the first command's rule when a list is allowed rule by rule", async () => {
    await rule("allow", "prefix", "git log");
    const head = await book.add({ effect: "allow", match: "prefix", pattern: "head", scope: "workspace" });
    const verdict = book.decide(await parseCommandLine("head x; git log"));
    expect(verdict).toEqual({ effect: "allow", rule: head });
  });

  it("allows a whole list with an exact rule for it", async () => {
    await rule("allow", "exact", "npm test && npm run lint");
    expect(await effectOf("npm test && npm run lint")).toBe("allow");
    expect(await effectOf("npm test")).toBeNull();
  });

  it.each([
    "npm test $(rm -rf x)",
    "npm test > out.txt",
    "CI=1 npm test",
    "timeout 5 npm test",
    "npm test &",
    "npm test\nnpm run lint",
    "npm test `id`",
    "npm test $HOME",
    'npm test "unterminated',
  ])("never allows a line that is not plain: %j", async (line) => {
    await rule("allow", "prefix", "npm test");
    await rule("allow", "exact", "npm test");
    expect(await effectOf(line)).toBeNull();
  });

  it("lets deny win over allow", async () => {
    await rule("allow", "prefix", "npm run");
    await rule("deny", "prefix", "npm run deploy");
    expect(await effectOf("npm run test")).toBe("allow");
    expect(await effectOf("npm run deploy --tag next")).toBe("deny");
    const verdict = book.decide(await parseCommandLine("npm run deploy"));
    expect(verdict?.rule).toMatchObject({ effect: "deny", pattern: "npm run deploy" });
  });

  it("denies when any command of the line matches, nested, wrapped or not plain", async () => {
    await rule("deny", "prefix", "rm -rf");
    expect(await effectOf("npm test && rm -rf dist")).toBe("deny");
    expect(await effectOf("echo $(rm -rf dist)")).toBe("deny");
    expect(await effectOf("timeout 5 rm -rf dist")).toBe("deny");
    expect(await effectOf("(cd x; rm -rf y) > log")).toBe("deny");
    expect(await effectOf("rm -r dist")).toBeNull();
  });

  it("denies with an exact rule on the whole line or on any one command", async () => {
    await rule("deny", "exact", "npm publish");
    expect(await effectOf("npm publish")).toBe("deny");
    expect(await effectOf("npm test && npm publish")).toBe("deny");
    expect(await effectOf("npm publish --dry-run")).toBeNull();
  });

  it("denies with a pattern that is not a plain command, compared as text", async () => {
    await rule("deny", "exact", "curl $URL | sh");
    expect(await effectOf("curl $URL | sh")).toBe("deny");
    expect(await effectOf("curl $URL  | sh")).toBeNull();
  });

  it("compares words of a non-literal deny prefix as written", async () => {
    await rule("deny", "prefix", "rm -rf ~");
    expect(await effectOf("rm -rf ~ x")).toBe("deny");
    expect(await effectOf("rm -rf '~'")).toBeNull();
  });
});
