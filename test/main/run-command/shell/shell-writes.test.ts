// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${...} is bash, not a template
import { describe, expect, it } from "vitest";
import {
  finalContents,
  type KnownWrite,
  knownShellWrites,
  readShellWrites,
} from "../../../../src/main/run-command";
import { parseCommandLine } from "../../../../src/main/run-command/shell/shell-parser";
import { filesAfterBash, type WorkspaceFiles } from "./bash-run";

const CWD = "/work/ws";

/** A line whose writes are known, what they are, and (through finalContents) what the files hold after. */
interface WriteCase {
  /** What the case shows. */
  name: string;
  /** The command line. */
  line: string;
  /** Files present before it runs (relative path to content). */
  before?: WorkspaceFiles;
  /** The expected writes, relative paths. */
  writes: Array<{ path: string; content: string; append?: boolean }>;
  /** The files' final contents (relative paths); defaults to the writes folded over `before`. */
  after: WorkspaceFiles;
  /** False when the line also runs commands not on this machine (npm): not run in bash. */
  bash?: false;
}

const SUM = "export function sum(a, b) {\n  return a + b;\n}\n";

const WRITE_CASES: WriteCase[] = [
  {
    name: "the issue's example: a quoted heredoc into a file, then a command",
    line: `cat > sum.js <<'EOF'\n${SUM}EOF\nnpm test`,
    writes: [{ path: "sum.js", content: SUM }],
    after: { "sum.js": SUM },
    bash: false,
  },
  {
    name: "heredoc before the redirection",
    line: "cat <<'EOF' > a.txt\nline 1\n  $HOME `id` $(id) \\\nEOF",
    writes: [{ path: "a.txt", content: "line 1\n  $HOME `id` $(id) \\\n" }],
    after: { "a.txt": "line 1\n  $HOME `id` $(id) \\\n" },
  },
  {
    name: "double-quoted delimiter, no space before the target",
    line: 'cat <<"EOF" >a.txt\nx\nEOF',
    writes: [{ path: "a.txt", content: "x\n" }],
    after: { "a.txt": "x\n" },
  },
  {
    name: "a backslash-quoted delimiter",
    line: "cat <<\\END > a.txt\n$x\nEND",
    writes: [{ path: "a.txt", content: "$x\n" }],
    after: { "a.txt": "$x\n" },
  },
  {
    name: "an empty heredoc truncates the file",
    line: "cat > a.txt <<'EOF'\nEOF",
    before: { "a.txt": "old\n" },
    writes: [{ path: "a.txt", content: "" }],
    after: { "a.txt": "" },
  },
  {
    name: "a line that only looks like the delimiter stays in the body",
    line: "cat > a.txt <<'EOF'\nxEOF\n'EOF'\n\"EOF\"\nEOF",
    writes: [{ path: "a.txt", content: "xEOF\n'EOF'\n\"EOF\"\n" }],
    after: { "a.txt": "xEOF\n'EOF'\n\"EOF\"\n" },
  },
  {
    name: "<<- strips leading tabs from the body and the delimiter line, not spaces",
    line: "cat <<-'EOF' > a.txt\n\tone\n\t\ttwo\n  three\n\t four\n\tEOF",
    writes: [{ path: "a.txt", content: "one\ntwo\n  three\n four\n" }],
    after: { "a.txt": "one\ntwo\n  three\n four\n" },
  },
  {
    name: "printf with %s and \\n",
    line: "printf '%s\\n' 'x' > a.txt",
    writes: [{ path: "a.txt", content: "x\n" }],
    after: { "a.txt": "x\n" },
  },
  {
    name: "printf reuses its format, prints 0 for a missing %d, %% and \\t \\\\",
    line: "printf '%s=%d\\t%%\\\\\\n' a 1 b -20 c > a.txt",
    writes: [{ path: "a.txt", content: "a=1\t%\\\nb=-20\t%\\\nc=0\t%\\\n" }],
    after: { "a.txt": "a=1\t%\\\nb=-20\t%\\\nc=0\t%\\\n" },
  },
  {
    name: "printf's arguments are printed as they are, backslashes and percents included",
    line: `printf -- '%s|%s\\n' '\\n%d' "a\\"b" > a.txt`,
    writes: [{ path: "a.txt", content: '\\n%d|a"b\n' }],
    after: { "a.txt": '\\n%d|a"b\n' },
  },
  {
    name: "printf with a format and no conversions prints it once",
    line: "printf 'x\\n' extra words > a.txt",
    writes: [{ path: "a.txt", content: "x\n" }],
    after: { "a.txt": "x\n" },
  },
  {
    name: "echo and echo -n",
    line: "echo 'x' > a.txt && echo -n \"y  z\" w > b.txt",
    writes: [
      { path: "a.txt", content: "x\n" },
      { path: "b.txt", content: "y  z w" },
    ],
    after: { "a.txt": "x\n", "b.txt": "y  z w" },
  },
  {
    name: "echo prints -- and words that are not all option letters, and keeps backslashes",
    line: "echo -nE -- -x '\\n' > a.txt",
    writes: [{ path: "a.txt", content: "-- -x \\n" }],
    after: { "a.txt": "-- -x \\n" },
  },
  {
    name: "tee of a heredoc, output to /dev/null",
    line: "tee a.txt <<'EOF' >/dev/null\nhello\nEOF",
    writes: [{ path: "a.txt", content: "hello\n" }],
    after: { "a.txt": "hello\n" },
  },
  {
    name: "tee -a appends, to several files",
    line: "tee -a a.txt b.txt <<'EOF'\nmore\nEOF",
    before: { "a.txt": "first\n" },
    writes: [
      { path: "a.txt", content: "more\n", append: true },
      { path: "b.txt", content: "more\n", append: true },
    ],
    after: { "a.txt": "first\nmore\n", "b.txt": "more\n" },
  },
  {
    name: ">> appends to the file as it is",
    line: "echo two >> a.txt",
    before: { "a.txt": "one\n" },
    writes: [{ path: "a.txt", content: "two\n", append: true }],
    after: { "a.txt": "one\ntwo\n" },
  },
  {
    name: "> then >> to one path combine in order",
    line: "echo one > a.txt; echo two >> ./a.txt\nprintf '%s\\n' three >> a.txt",
    before: { "a.txt": "old\n" },
    writes: [
      { path: "a.txt", content: "one\n" },
      { path: "a.txt", content: "two\n", append: true },
      { path: "a.txt", content: "three\n", append: true },
    ],
    after: { "a.txt": "one\ntwo\nthree\n" },
  },
  {
    name: "several heredocs joined by && and newlines, in order",
    line: "cat > a.txt <<'A'\n1\nA\ncat <<'B' >> a.txt\n2\nB\necho 3 > b.txt; cat > b.txt <<'C'\n3\nC\necho 4 > c.txt && cat <<'D' >> c.txt && echo 6 >> c.txt\n5\nD\n",
    writes: [
      { path: "a.txt", content: "1\n" },
      { path: "a.txt", content: "2\n", append: true },
      { path: "b.txt", content: "3\n" },
      { path: "b.txt", content: "3\n" },
      { path: "c.txt", content: "4\n" },
      { path: "c.txt", content: "5\n", append: true },
      { path: "c.txt", content: "6\n", append: true },
    ],
    after: { "a.txt": "1\n2\n", "b.txt": "3\n", "c.txt": "4\n5\n6\n" },
  },
  {
    name: "a literal here-string gains a newline",
    line: "cat <<< 'it''s' > a.txt",
    writes: [{ path: "a.txt", content: "its\n" }],
    after: { "a.txt": "its\n" },
  },
  {
    name: "mkdir -p before a write into the folder it makes",
    line: "mkdir -p src/lib && cat > src/lib/x.js <<'EOF'\nexport const x = 1;\nEOF",
    writes: [{ path: "src/lib/x.js", content: "export const x = 1;\n" }],
    after: { "src/lib/x.js": "export const x = 1;\n" },
  },
  {
    name: "writes before a command not modelled are known; that command and what follows it are not",
    line: "echo a > a.txt\nnpm test > log.txt\necho b > b.txt",
    writes: [{ path: "a.txt", content: "a\n" }],
    after: { "a.txt": "a\n" },
    bash: false,
  },
  {
    name: "words after the redirection still go to the command; a comment after a heredoc's line",
    line: "echo a > a.txt b\ncat <<'EOF' > b.txt # the body follows\nx\nEOF",
    writes: [
      { path: "a.txt", content: "a b\n" },
      { path: "b.txt", content: "x\n" },
    ],
    after: { "a.txt": "a b\n", "b.txt": "x\n" },
  },
  {
    name: "a no-break space is part of a word, to bash and to the grammar",
    line: "echo x\u00a0> a.txt",
    writes: [{ path: "a.txt", content: "x\u00a0\n" }],
    after: { "a.txt": "x\u00a0\n" },
  },
  {
    name: "a line continuation between words",
    line: "echo a \\\n  b \\\n> a.txt",
    writes: [{ path: "a.txt", content: "a b\n" }],
    after: { "a.txt": "a b\n" },
  },
  {
    name: "unicode, quotes and a trailing blank line in a heredoc",
    line: "cat > 文件.md <<'EOF'\n«ünï» 'q' \"d\" 🙂\n\nEOF",
    writes: [{ path: "文件.md", content: "«ünï» 'q' \"d\" 🙂\n\n" }],
    after: { "文件.md": "«ünï» 'q' \"d\" 🙂\n\n" },
  },
  {
    name: "an absolute path and a comment",
    line: "# write it\necho x > /work/ws/sub/a.txt # done",
    writes: [{ path: "sub/a.txt", content: "x\n" }],
    after: { "sub/a.txt": "x\n" },
    bash: false,
  },
];

/** Lines whose writes are not known exactly: each must give no write at all. */
const NO_WRITE_CASES: Array<[string, string]> = [
  ["unquoted heredoc", "cat > a.txt <<EOF\nplain\nEOF"],
  ["unquoted heredoc with <<-", "cat > a.txt <<-EOF\n\tplain\n\tEOF"],
  ["a variable in the content", "echo $HOME > a.txt"],
  ["a variable in double quotes", 'echo "$HOME" > a.txt'],
  ["a variable in the path", "echo x > $F"],
  ["a variable in a printf argument", "printf '%s' \"$x\" > a.txt"],
  ["a glob in the content", "echo *.ts > a.txt"],
  ["a glob in the path", "echo x > *.txt"],
  ["brace expansion", "echo {a,b} > a.txt"],
  ["command substitution in the content", "echo $(id) > a.txt"],
  ["backticks in the content", "echo `id` > a.txt"],
  ["command substitution in the path", "echo x > $(echo a.txt)"],
  ["command substitution in a here-string", 'cat <<< "$(id)" > a.txt'],
  ["a variable in a here-string", "cat <<< $HOME > a.txt"],
  ["a tilde path", "echo x > ~/a.txt"],
  ["a quoted tilde path", "echo x > '~/a.txt'"],
  // bash expands ~ after the = of a word that looks like an assignment, even as an argument or a target.
  ["a tilde after = in an argument", "echo a=~/x > a.txt"],
  ["a tilde after : in an assignment-like argument", "printf '%s' a=x:~/y > a.txt"],
  ["a tilde after = in the path", "echo x > a=~"],
  ["a path through ..", "echo x > ../a.txt"],
  ["a path ending in /", "echo x > dir/"],
  ["a pipe into tee", "echo x | tee a.txt"],
  ["a heredoc piped into tee", "cat <<'EOF' | tee a.txt\nx\nEOF"],
  ["a write piped on", "echo x > a.txt | cat"],
  // A pipeline's commands run at once: the next one may touch the file while it is written.
  ["a heredoc write piped on", "cat > a.txt <<'EOF' | rm a.txt\nx\nEOF"],
  ["a redirect of a command whose output is not known", "npm test > log"],
  ["stderr to a file", "echo x 2> a.txt"],
  ["stdout by descriptor", "echo x 1> a.txt"],
  ["both streams", "echo x &> a.txt"],
  ["both streams, appended", "echo x &>> a.txt"],
  ["a duplicated descriptor", "echo x > a.txt 2>&1"],
  ["the old spelling of &>", "echo x >& a.txt"],
  ["clobber", "echo x >| a.txt"],
  ["two outputs", "echo x > a.txt > b.txt"],
  ["cat reading a file", "cat b.txt > a.txt"],
  ["cat with an input file", "cat < b.txt > a.txt"],
  ["cat with a heredoc and a file", "cat - b.txt > a.txt <<'EOF'\nx\nEOF"],
  ["tee reading its input from the run", "tee a.txt"],
  ["tee with output to a file", "tee a.txt <<'EOF' > b.txt\nx\nEOF"],
  ["tee with an option not modelled", "tee -i a.txt <<'EOF'\nx\nEOF"],
  ["echo -e", "echo -e 'a\\tb' > a.txt"],
  ["echo -ne", "echo -ne 'a' > a.txt"],
  ["printf -v", "printf -v x '%s' y > a.txt"],
  ["printf with a width", "printf '%5s' x > a.txt"],
  ["printf %b", "printf '%b' 'a\\n' > a.txt"],
  ["printf %i", "printf '%i' 1 > a.txt"],
  ["printf with an escape not modelled", "printf 'a\\x41' > a.txt"],
  ["printf with \\c", "printf 'a\\cb' > a.txt"],
  ["printf with a trailing %", "printf 'a%' > a.txt"],
  ["printf %d of an octal number", "printf '%d' 010 > a.txt"],
  ["printf %d of a word", "printf '%d' x > a.txt"],
  ["printf with no format", "printf > a.txt"],
  ["an ANSI-C string, whose bytes are not its text", "printf '%s' $'\\xff' > a.txt"],
  ["a heredoc inside a subshell", "(cat > a.txt <<'EOF'\nx\nEOF\n)"],
  ["a redirected subshell", "(echo x) > a.txt"],
  ["a group", "{ echo x; } > a.txt"],
  ["a write in a group", "{ echo x > a.txt; }"],
  ["a write in a function", "f() { echo x > a.txt; }; f"],
  ["a redefined echo before the write", "echo() { :; }; echo x > a.txt"],
  ["a write in a loop", "for i in 1 2; do echo x >> a.txt; done"],
  ["a write in a conditional", "if true; then echo x > a.txt; fi"],
  ["a write after ||", "false || echo x > a.txt"],
  ["a write after a test", "[ -f a ] && echo x > a.txt"],
  ["a negated write", "! echo x > a.txt"],
  ["a write in the background", "echo x > a.txt &"],
  ["a list in the background", "echo x > a.txt && echo y > b.txt &"],
  ["a heredoc write in the background", "cat > a.txt <<'EOF' &\nx\nEOF"],
  ["a heredoc write in the background, heredoc first", "cat <<'EOF' > a.txt &\nx\nEOF"],
  ["two heredocs for one command (bash reads the last)", "cat <<'A' <<'B' > a.txt\n1\nA\n2\nB"],
  ["a write after a cd", "cd sub && echo x > a.txt"],
  ["a write after an assignment", "PATH=/tmp; echo x > a.txt"],
  ["a prefix assignment", "LC_ALL=C echo x > a.txt"],
  ["a wrapper", "env echo x > a.txt"],
  ["builtin", "builtin echo x > a.txt"],
  ["a command in a substitution writes", 'x="$(echo a > a.txt)"'],
  ["a parse error", "echo x > a.txt; if"],
  ["an unterminated heredoc", "cat > a.txt <<'EOF'\nx\n"],
  ["a CRLF delimiter line", "cat > a.txt <<'EOF'\r\nx\r\nEOF\r\n"],
  ["two heredocs on one line", "cat <<'A' > a.txt; cat <<'B' > b.txt\n1\nA\n2\nB"],
  ["a heredoc sharing its line with a command", "cat <<'EOF' > a.txt; echo y\nx\nEOF"],
  // Lines where tree-sitter-bash ends a heredoc on a line bash keeps in the body: the two disagree, so no preview.
  ["a body line with a blank before the delimiter", "cat > a.txt <<'EOF'\n EOF\nEOF"],
  ["a body line with a blank after the delimiter", "cat > a.txt <<'EOF'\nEOF \nEOF"],
  ["a body line the delimiter begins", "cat > a.txt <<'EOF'\nEOFX\nEOF"],
  ["a heredoc whose line goes on after &&", "cat > a.txt <<'A' &&\n1\nA\necho b > b.txt"],
  ["a delimiter the grammar misreads", 'cat > a.txt <<"E"OF\nx\nEOF'],
  // tree-sitter-bash skips an escaped blank between words; bash keeps it as a character.
  ["an escaped blank before the command", "\\ cat > a.txt <<'EOF'\nx\nEOF"],
  ["an escaped blank between words", "echo x \\ > a.txt"],
  ["an escaped tab between words", "echo x\t\\\t> a.txt"],
  ["an escaped blank after the line", "echo x > a.txt \\ "],
  ["a CRLF line end, which bash keeps in the file name", "echo x > a.txt\r\necho y > b.txt\r\n"],
  ["a CR between words", "echo x\r y > a.txt"],
  ["a form feed between words", "echo x\f y > a.txt"],
  ["an escaped CRLF", "echo x \\\r\n y > a.txt"],
  ["an ideographic space", "echo\u3000x > a.txt"],
  ["a NUL", "echo 'a\0b' > a.txt"],
  ["a lone surrogate", "echo '\uD800' > a.txt"],
  ["a write onto the folder just made", "mkdir -p a.txt && echo x > a.txt"],
  // Without -p, mkdir fails on a folder that exists and && skips the write.
  ["mkdir without -p", "mkdir src && echo x > src/a.txt"],
  ["a write onto a parent folder just made", "mkdir -p a/b && echo x > a"],
  ["tee --append (GNU only)", "tee --append a.txt <<'EOF'\nx\nEOF"],
  ["a descriptor on a heredoc", "cat 0<<'EOF' > a.txt\nx\nEOF"],
  ["writing into /dev", "echo x > /dev/sda"],
];

const relative = (writes: KnownWrite[], cwd: string) =>
  writes.map((write) => ({ ...write, path: write.path.slice(cwd.length + 1) }));

describe("knownShellWrites", () => {
  it.each(WRITE_CASES)("knows the writes of: $name", async ({ line, writes, before, after }) => {
    const known = knownShellWrites(await parseCommandLine(line), CWD);
    expect(relative(known, CWD)).toEqual(writes.map((write) => ({ append: false, ...write })));
    const current = (path: string) => before?.[path.slice(CWD.length + 1)];
    const contents = Object.fromEntries(
      [...finalContents(known, current)].map(([path, content]) => [path.slice(CWD.length + 1), content]),
    );
    expect(contents).toEqual(after);
  });

  it.each(NO_WRITE_CASES)("knows no write for %s", async (_name, line) => {
    expect(knownShellWrites(await parseCommandLine(line), CWD)).toEqual([]);
  });

  it.each([
    ["echo a > a.txt\nnpm test > log.txt\necho b > b.txt", ["a.txt"], "npm test"],
    ["echo x > a; echo y > a/b", ["a"], "echo y"],
    ["echo x > a; mkdir -p a/b && echo y > c", ["a"], "mkdir"],
    ["echo x > a || echo y > b", ["a"], "echo y"],
    ["echo x | tee a", [], "echo x"],
    ["echo x > a && echo y > b", ["a", "b"], undefined],
  ])("reads %j up to the first statement it does not model", async (line, paths, stop) => {
    const read = readShellWrites(await parseCommandLine(line), CWD);
    expect(read.writes.map((write) => write.path.slice(CWD.length + 1))).toEqual(paths);
    expect(read.stoppedAt).toBe(stop === undefined ? undefined : line.indexOf(stop));
  });

  it("says which folders mkdir -p makes on the way", async () => {
    const read = readShellWrites(await parseCommandLine("mkdir -p src/a lib && echo x > src/a/x.txt"), CWD);
    expect(read.folders).toEqual([`${CWD}/src/a`, `${CWD}/lib`]);
    expect(read.writes.map((write) => write.path)).toEqual([`${CWD}/src/a/x.txt`]);
  });

  it("gives absolute paths resolved against the cwd", async () => {
    const known = knownShellWrites(await parseCommandLine("echo x > ./a/./b.txt"), "/w/s/");
    expect(known.map((write) => write.path)).toEqual(["/w/s/a/b.txt"]);
    expect(knownShellWrites(await parseCommandLine("echo x > a"), "relative/cwd")).toEqual([]);
  });
});

describe("the writes agree with real bash", () => {
  it.each(WRITE_CASES.filter((testCase) => testCase.bash !== false))(
    "bash leaves the predicted bytes for: $name",
    async ({ line, before = {} }) => {
      const run = filesAfterBash(line, before);
      const known = knownShellWrites(await parseCommandLine(line), run.cwd);
      expect(known.length).toBeGreaterThan(0);
      const predicted = finalContents(known, (path) => before[path.slice(run.cwd.length + 1)]);
      const expected: WorkspaceFiles = { ...before };
      for (const [path, content] of predicted) expected[path.slice(run.cwd.length + 1)] = content;
      expect(run.status).toBe(0);
      // Byte for byte, and no file the model did not predict.
      expect(run.files).toEqual(
        Object.fromEntries(Object.entries(expected).map(([path, text]) => [path, Buffer.from(text)])),
      );
    },
  );
});
