// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${...} is bash, not a template
import { describe, expect, it } from "vitest";
import type { ParsedCommandLine } from "../../../../src/main/run-command/shell/parsed-line";
import {
  loadShellParser,
  parseCommandLine,
  parseCommandLineSync,
} from "../../../../src/main/run-command/shell/shell-parser";
import { filesAfterBash } from "./bash-run";

const names = (parsed: ParsedCommandLine) => parsed.commands.map((command) => command.name);
const kinds = (parsed: ParsedCommandLine) => parsed.risks.map((risk) => risk.kind);

/** Every span the parser reports must cut exactly its text out of the source: the UI highlights by span. */
function expectSpansMatch(parsed: ParsedCommandLine): void {
  for (const item of [...parsed.commands, ...parsed.risks, ...parsed.redirects, ...parsed.assignments]) {
    expect(parsed.source.slice(item.start, item.end)).toBe(item.text);
  }
}

describe("parseCommandLine", () => {
  it("loads the grammar once and shares it", async () => {
    const first = await loadShellParser();
    expect(await loadShellParser()).toBe(first);
    const started = performance.now();
    for (let i = 0; i < 50; i++) await parseCommandLine("git log --oneline -n 5 | head && npm test");
    // Cheap after the first call: 50 parses well under a second even on a slow machine.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("reads a plain command with quote removal", async () => {
    const parsed = await parseCommandLine(`"n"pm test -- --grep "a b" 'c d' e\\ f "x\\"y"`);
    expect(parsed.commands).toHaveLength(1);
    expect(parsed.commands[0]).toMatchObject({
      name: "npm",
      args: ["test", "--", "--grep", "a b", "c d", "e f", 'x"y'],
      literal: true,
      context: "line",
    });
    expect(parsed.plain).toBe(true);
    expect(parsed.error).toBeUndefined();
  });

  it("sees through backslashes, quotes and ANSI-C quoting in names", async () => {
    const parsed = await parseCommandLine(`c\\at a; 'c'at b; $'\\x63at' c; $'\\143\\141t' d`);
    expect(names(parsed)).toEqual(["cat", "cat", "cat", "cat"]);
  });

  it("keeps the source text of non-literal words", async () => {
    const parsed = await parseCommandLine('echo $HOME *.ts ~/x {a,b} "$(id)"');
    const [echo] = parsed.commands;
    expect(echo?.args).toEqual(["$HOME", "*.ts", "~/x", "{a,b}", '"$(id)"']);
    expect(echo?.literal).toBe(false);
    expect(echo?.argWords.map((word) => word.dynamic)).toEqual([true, false, false, false, true]);
    expect(parsed.plain).toBe(false);
  });

  it("reads a tilde after an assignment-like word's = or : as bash expands it, even in an argument", async () => {
    // bash 5 prints "of=/root/x a=x:/root/b --p=~ a=~" for these (HOME=/root): the first two expand.
    const parsed = await parseCommandLine("dd of=~/x a=x:~/b --p=~ 'a=~'");
    expect(parsed.commands[0]?.argWords.map((word) => word.literal)).toEqual([false, false, true, true]);
    expect(parsed.plain).toBe(false);
    expect((await parseCommandLine("a[1]=~ b+=~ true")).plain).toBe(false);
  });

  it("refuses a redirection target the grammar splits at a line continuation", async () => {
    // bash writes "x" to a.txt (found by the shell-writes differential property); the grammar reads "a".
    const parsed = await parseCommandLine("echo 'x' > a\\\n.txt && echo -n y >> a.txt");
    expect(parsed.error).toMatch(/reads "a" and ".txt" as two words, bash as one/);
    expect((await parseCommandLine("echo 'x' > a \\\n .txt")).error).toBeUndefined();
  });

  it("refuses a redirection whose target or heredoc delimiter is on the next line, as bash does", async () => {
    // bash stops at "syntax error near unexpected token `newline'" and runs nothing; the grammar reads on
    // (found by the shell-writes differential property: a heredoc shown as written that never was).
    for (const line of [
      "cat > a.txt <<\n'EOF'\nline 1\nEOF",
      "cat > a.txt <<-\nEOF\nline 1\nEOF",
      "echo hi >\na.txt",
      "echo hi >> \n a.txt",
      "cat <<<\nword",
    ]) {
      const bash = filesAfterBash(line, {});
      expect({ line, status: bash.status }).toEqual({ line, status: 2 });
      expect({ line, error: (await parseCommandLine(line)).error }).toEqual({
        line,
        error: expect.stringMatching(/on the next line/),
      });
    }
    // A line continuation joins the lines for bash too: read as one.
    const joined = "echo hi > \\\na.txt";
    expect(filesAfterBash(joined, {}).files["a.txt"]?.toString()).toBe("hi\n");
    const parsed = await parseCommandLine(joined);
    expect(parsed.error).toBeUndefined();
    expect(parsed.redirects.map((redirect) => redirect.target?.value)).toEqual(["a.txt"]);
  });

  it("refuses to check a line the grammar reads with a blank where bash keeps a character in a word", async () => {
    // bash runs a program named " cat" (and writes to "a.txt<CR>"); tree-sitter-bash reads "cat" and "a.txt".
    for (const line of [
      "\\ cat > a",
      "echo hi > a.txt\r",
      "ls \\\t-la",
      "echo a \vb",
      "echo a \fb",
      "echo x\r\n",
    ]) {
      const parsed = await parseCommandLine(line);
      expect(parsed.error, JSON.stringify(line)).toMatch(/bash reads the line differently .* Quote the word/);
      expect(parsed.risks.map((risk) => risk.say?.id)).toContain("misread");
      expect(parsed.statements).toEqual([]);
    }
    // A backslash-newline is a line continuation, and an escaped blank inside a word is read right.
    for (const line of ["echo a \\\n b", "cat My\\ File.txt", "printf 'a\r\n'"]) {
      expect((await parseCommandLine(line)).error, JSON.stringify(line)).toBeUndefined();
    }
  });

  it("fails closed where the grammar misreads a lone dollar sign as an expansion", async () => {
    // bash prints "costs 5 $ now"; tree-sitter-bash reads `$ now` as a variable named " now".
    const parsed = await parseCommandLine('git commit -m "costs 5 $ now"');
    expect(parsed.commands[0]?.literal).toBe(false);
    expect(parsed.commands[0]?.argWords[2]?.dynamic).toBe(true);
  });

  it("finds commands nested in substitutions, with spans", async () => {
    const source = 'echo "a $(git log | head -n 1) `id`" <(ls) && npm test';
    const parsed = await parseCommandLine(source);
    expect(names(parsed)).toEqual(["echo", "git", "head", "id", "ls", "npm"]);
    expect(parsed.commands.map((command) => command.context)).toEqual([
      "line",
      "substitution",
      "substitution",
      "substitution",
      "process-substitution",
      "line",
    ]);
    expect(kinds(parsed)).toEqual(
      expect.arrayContaining(["command-substitution", "process-substitution", "pipeline", "list"]),
    );
    const git = parsed.commands[1];
    expect(source.slice(git?.start, git?.end)).toBe("git log");
    expectSpansMatch(parsed);
  });

  it("finds commands in arithmetic, tests, parameter defaults and heredocs", async () => {
    const parsed = await parseCommandLine(
      'echo $((1 + $(a))) "${x:-$(b)}" ${y[$(c)]}; [[ $(d) ]]; (( z = $(e) ))\ncat <<EOF\n$(f)\nEOF',
    );
    expect(names(parsed).sort()).toEqual(["a", "b", "c", "cat", "d", "e", "echo", "f"]);
    expectSpansMatch(parsed);
  });

  it("refuses what the grammar leaves unread in a heredoc body", async () => {
    // tree-sitter-bash keeps backticks and $[...] in a heredoc body as text; bash runs them.
    expect((await parseCommandLine("cat <<EOF\n`id`\nEOF")).error).toContain("cannot read");
    expect((await parseCommandLine("cat <<EOF\nsum: $[x]\nEOF")).error).toContain("cannot read");
    expect((await parseCommandLine("cat <<EOF\n\\`id\\` costs \\$5\nEOF")).error).toBeUndefined();
    expect((await parseCommandLine("cat <<'EOF'\n`id`\nEOF")).error).toBeUndefined();
  });

  it("takes $(( in a heredoc as arithmetic, whatever the grammar says", async () => {
    const parsed = await parseCommandLine("cat <<EOF\n$((npm))\nEOF");
    expect(kinds(parsed)).toContain("arithmetic");
  });

  it("does not look inside a quoted heredoc or single quotes", async () => {
    const parsed = await parseCommandLine("cat <<'EOF'\n$(rm -rf x)\nEOF\necho '$(rm -rf y)'");
    expect(names(parsed)).toEqual(["cat", "echo"]);
    expect(parsed.commands[1]?.args).toEqual(["$(rm -rf y)"]);
  });

  it("finds commands in subshells, groups, loops, conditionals and functions", async () => {
    const parsed = await parseCommandLine(
      "(a); { b; }; for i in 1; do c; done; while d; do e; done; if f; then g; else h; fi; case x in x) i;; esac; k() { l; }; ! m",
    );
    expect(names(parsed)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i", "l", "m"]);
    expect(kinds(parsed)).toEqual(expect.arrayContaining(["subshell", "group", "compound", "function"]));
    expect(parsed.plain).toBe(false);
    expect(parsed.assignments).toMatchObject([{ name: "i", scope: "loop" }]);
  });

  it("unwraps wrappers so the command they run is seen", async () => {
    const parsed = await parseCommandLine("env -i CI=1 nice -n 5 timeout -s KILL 5 cat /etc/passwd");
    expect(names(parsed)).toEqual(["env", "nice", "timeout", "cat"]);
    const cat = parsed.commands[3];
    expect(cat).toMatchObject({
      args: ["/etc/passwd"],
      context: "wrapper",
      wrapper: "timeout",
      text: "cat /etc/passwd",
    });
    expect(parsed.assignments).toMatchObject([{ name: "CI", scope: "env" }]);
    expect(kinds(parsed)).toContain("wrapper");
    expect(parsed.plain).toBe(false);
    expectSpansMatch(parsed);
  });

  it("marks eval-like builtins and shells", async () => {
    const parsed = await parseCommandLine("eval x; bash -c y; command cat z");
    expect(parsed.risks.filter((risk) => risk.kind === "eval").map((risk) => risk.text)).toEqual(["eval"]);
    expect(parsed.risks.filter((risk) => risk.kind === "wrapper").map((risk) => risk.text)).toEqual([
      "bash",
      "command",
    ]);
    expect(names(parsed)).toEqual(["eval", "bash", "command", "cat"]);
  });

  it("records redirections, harmless ones without a risk", async () => {
    const parsed = await parseCommandLine("npm test 2>&1 >/dev/null 3>&- > out.txt >> log < in.txt");
    expect(parsed.redirects.map((r) => [r.text, r.kind, r.harmless])).toEqual([
      ["2>&1", "duplicate", true],
      [">/dev/null", "write", true],
      ["3>&-", "close", true],
      ["> out.txt", "write", false],
      [">> log", "write", false],
      ["< in.txt", "read", false],
    ]);
    expect(parsed.risks.filter((risk) => risk.kind === "redirection").map((risk) => risk.text)).toEqual([
      "> out.txt",
      ">> log",
      "< in.txt",
    ]);
    expectSpansMatch(parsed);
  });

  it("gives words the grammar hangs on a redirection back to the command", async () => {
    const parsed = await parseCommandLine("echo > f hi there");
    expect(parsed.commands[0]).toMatchObject({ name: "echo", args: ["hi", "there"] });
    expect(parsed.redirects).toMatchObject([{ kind: "write", target: { value: "f" } }]);
  });

  it("records assignments by scope", async () => {
    const parsed = await parseCommandLine("A=1 npm test; b=2; export C=3 D; declare -x E=4; local f=5");
    expect(parsed.assignments.map((a) => [a.name, a.scope])).toEqual([
      ["A", "prefix"],
      ["b", "shell"],
      ["C", "export"],
      ["E", "export"],
      ["f", "shell"],
    ]);
    expect(parsed.commands[0]?.assignments).toEqual(["A=1"]);
    expect(names(parsed)).toEqual(["npm", "export", "declare", "local"]);
  });

  it.each([
    ["npm test", true],
    ["npm test && npm run lint || git status; git log | head -n 5", true],
    ["npm test 2>&1 | head", true],
    ["npm test >/dev/null 2>&1", true],
    ["npm test > out.txt", false],
    ["npm test $(id)", false],
    ["CI=1 npm test", false],
    ["timeout 5 npm test", false],
    ["(npm test)", false],
    ["npm test &", false],
    ["npm test\nnpm run lint", false],
    ["npm test # done", false],
    ["ls *.ts", false],
    ["if true; then npm test; fi", false],
    ["export A", false],
    ["", false],
    ['echo "unterminated', false],
  ])("plain(%j) is %s", async (source, plain) => {
    expect((await parseCommandLine(source)).plain).toBe(plain);
  });

  it("tells multiline lines apart, a trailing newline aside", async () => {
    expect((await parseCommandLine("npm test\nnpm run lint")).multiline).toBe(true);
    expect((await parseCommandLine("npm test\n")).multiline).toBe(false);
    const continued = await parseCommandLine("npm \\\n  test");
    expect(continued.multiline).toBe(true);
    expect(continued.commands).toMatchObject([{ name: "npm", args: ["test"] }]);
    expect(kinds(await parseCommandLine("npm test\nnpm run lint"))).toContain("newline");
  });

  it.each([
    'echo "unterminated',
    "npm test )",
    "if true; then echo",
    "echo $(",
    "cat <> f",
    "npm test >&- {fd}",
    "x=1 > f",
  ])("reports a parse error for %j", async (source) => {
    const parsed = await parseCommandLine(source);
    expect(parsed.error).toMatch(/./);
    expect(parsed.plain).toBe(false);
  });

  it("marks where the parse failed", async () => {
    const parsed = await parseCommandLine('echo ok; echo "never closed');
    expect(parsed.error).toContain("does not parse as bash");
    expect(parsed.risks.some((risk) => risk.kind === "parse-error")).toBe(true);
  });

  it("counts offsets in UTF-16 code units, like JavaScript strings", async () => {
    const source = "echo héllo→ 😀 $(ls) > ünï";
    const parsed = await parseCommandLine(source);
    expect(parsed.commands[1]?.text).toBe("ls");
    expectSpansMatch(parsed);
  });

  it("refuses words the grammar splits where bash does not", async () => {
    // bash runs `gitk x` and `np<output>m test`; tree-sitter-bash reads `git` + `k x` and `np` + `` `cat`m ``.
    expect((await parseCommandLine("git\\\nk x")).error).toContain("two words");
    expect((await parseCommandLine("np`cat`m test")).error).toContain("two words");
    expect((await parseCommandLine("npm \\\n test")).error).toBeUndefined();
    const glued = await parseCommandLine("echo `npm``cat x`");
    expect(glued.commands.find((command) => command.context === "substitution")?.nameWord.literal).toBe(
      false,
    );
  });

  it("marks invisible characters and non-ASCII command names", async () => {
    const parsed = await parseCommandLine("сat x; echo \u202egnp.exe");
    expect(kinds(parsed)).toEqual(expect.arrayContaining(["lookalike", "hidden-character"]));
    expect(parsed.plain).toBe(false);
    expectSpansMatch(parsed);
  });

  it("parses synchronously once loaded", async () => {
    await loadShellParser();
    expect(parseCommandLineSync("npm test").commands[0]?.name).toBe("npm");
  });

  it("refuses to parse a line longer than the limit", async () => {
    const parsed = await parseCommandLine(`echo ${"a".repeat(70_000)}`);
    expect(parsed.error).toContain("characters long");
    expect(parsed.commands).toEqual([]);
  });
});
