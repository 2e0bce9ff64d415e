import { dirname, isAbsolute, resolve } from "node:path";
import { echoOutput, printfOutput } from "./builtin-output";
import type { LineStatement, ParsedCommandLine, ShellRedirect, ShellWord } from "./parsed-line";

/** A file write a command line will make whose bytes are known exactly before it runs. */
export interface KnownWrite {
  /** Absolute path, resolved lexically against the command's cwd; not yet checked against the workspace or symlinks. */
  path: string;
  /** The text the write puts in the file (written as UTF-8). */
  content: string;
  /** True for an append (`>>`, `tee -a`): the content lands after what the file holds. */
  append: boolean;
}

/** A UTF-16 surrogate without its pair: no UTF-8 encodes it, so the bytes bash gets are not the text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What one statement does that matters here: the writes it makes and the folders it creates. */
interface StatementEffect {
  writes: KnownWrite[];
  folders: string[];
}

/** What a line's statements are known to write, and where the part that is not modelled begins. */
export interface ShellWrites {
  /** The writes known exactly, in the order they happen. */
  writes: KnownWrite[];
  /** Folders `mkdir -p` makes before or between the writes (absolute), so a check can allow a write into one. */
  folders: string[];
  /** Offset in the line of the first statement not modelled (the reading stopped there); absent when every statement is. */
  stoppedAt?: number;
}

/**
 * The writes of a parsed line known exactly, or [] when none is (never a guess). Statements are read in
 * order while each is one this module models exactly (`cat`/`tee` of a quoted heredoc or a literal
 * here-string, `echo`/`printf` of literal words, `mkdir`) and runs unconditionally after the one before
 * (`;`, a newline, `&&`); the first statement that is anything else (another command, `||`, a pipe, `&`,
 * a subshell, a loop, a function, an assignment) ends the reading, since from there on what runs, and
 * where, is not known. Writes before it are still known: they happen first.
 */
export function knownShellWrites(line: ParsedCommandLine, cwd: string): KnownWrite[] {
  return readShellWrites(line, cwd).writes;
}

/** knownShellWrites, and where it stopped reading: what a card needs to say "then runs: ...". */
export function readShellWrites(line: ParsedCommandLine, cwd: string): ShellWrites {
  // A NUL cannot reach bash through argv, and a lone surrogate is not the UTF-8 bash would be given.
  if (line.error || !isAbsolute(cwd) || line.source.includes("\0") || LONE_SURROGATE.test(line.source)) {
    return { writes: [], folders: [], stoppedAt: 0 };
  }
  const writes: KnownWrite[] = [];
  const made: string[] = [];
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const [i, statement] of line.statements.entries()) {
    const piped = ["|", "|&"].includes(line.statements[i + 1]?.joint ?? "");
    const effect =
      ["start", "newline", ";", "&&"].includes(statement.joint) && !statement.background && !piped
        ? statementEffect(statement, cwd)
        : undefined;
    if (!effect || clashes(effect, files, folders)) {
      return { writes, folders: made, stoppedAt: statement.start };
    }
    writes.push(...effect.writes);
    made.push(...effect.folders);
    for (const write of effect.writes) files.add(write.path);
    for (const folder of effect.folders) for (const path of [folder, ...ancestors(folder)]) folders.add(path);
  }
  return { writes, folders: made };
}

/**
 * True when the statement would fail on what the line made before it: a write onto a folder it made, or
 * into a file it wrote, or a folder made inside a file. A preview of a write that fails would be wrong.
 */
function clashes(effect: StatementEffect, files: ReadonlySet<string>, folders: ReadonlySet<string>): boolean {
  const underFile = (path: string) => ancestors(path).some((ancestor) => files.has(ancestor));
  return (
    effect.writes.some((write) => folders.has(write.path) || underFile(write.path)) ||
    effect.folders.some((folder) => files.has(folder) || underFile(folder))
  );
}

/** The folders above an absolute path, nearest first. */
function ancestors(path: string): string[] {
  const above: string[] = [];
  for (let current = path; dirname(current) !== current; current = dirname(current)) {
    above.push(dirname(current));
  }
  return above;
}

/**
 * The final content of every path the writes touch, applied in order: a write replaces, an append adds
 * to what came before (from an earlier write, or `readCurrent` for the file as it is; undefined: no file).
 */
export function finalContents(
  writes: readonly KnownWrite[],
  readCurrent: (path: string) => string | undefined,
): Map<string, string> {
  const contents = new Map<string, string>();
  for (const write of writes) {
    const before = contents.get(write.path) ?? (write.append ? (readCurrent(write.path) ?? "") : "");
    contents.set(write.path, write.append ? before + write.content : write.content);
  }
  return contents;
}

function statementEffect(statement: LineStatement, cwd: string): StatementEffect | undefined {
  const command = statement.command;
  if (!command || command.assignments.length > 0 || !command.literal) return undefined;
  if (!command.argWords.every(exactWord)) return undefined;
  const streams = readStreams(statement.redirects, cwd);
  if (!streams) return undefined;
  const { input, output } = streams;
  if (command.name === "tee") return teeEffect(command.args, input, output, cwd);
  if (command.name === "mkdir") return input || output ? undefined : mkdirEffect(command.args, cwd);
  const content = outputOf(command.name, command.args, input);
  if (content === undefined) return undefined;
  if (!output || output === "sink") return { writes: [], folders: [] };
  return { writes: [{ ...output, content }], folders: [] };
}

/** What `cat`, `echo` or `printf` print; undefined for any other command or a form not modelled. */
function outputOf(name: string, args: readonly string[], input: string | undefined): string | undefined {
  if (name === "cat") return args.length === 0 ? input : undefined;
  // These two do not read their input; one given to them is a line this module does not expect.
  if (input !== undefined) return undefined;
  if (name === "echo") return echoOutput(args);
  if (name === "printf") return printfOutput(args);
  return undefined;
}

/** `tee [-a] FILE...`: the input to every file (and to the command's output, or /dev/null). */
function teeEffect(
  args: readonly string[],
  input: string | undefined,
  output: Output | undefined,
  cwd: string,
): StatementEffect | undefined {
  if (input === undefined || (output !== undefined && output !== "sink")) return undefined;
  // Short options only: BSD tee (macOS) has no --append.
  const append = args[0] === "-a";
  const files = append ? args.slice(1) : args;
  if (files.length === 0 || new Set(files).size !== files.length) return undefined;
  const paths = files.map((file) => (file.startsWith("-") ? undefined : filePath(file, cwd)));
  if (!paths.every((path) => path !== undefined)) return undefined;
  return { writes: paths.map((path) => ({ path, content: input, append })), folders: [] };
}

/**
 * `mkdir -p DIR...`: writes no file, so a write after it is still known. Without -p it fails on a folder
 * that exists, and `&&` would then skip the writes after it. Short options only: BSD mkdir has no --parents.
 */
function mkdirEffect(args: readonly string[], cwd: string): StatementEffect | undefined {
  if (args[0] !== "-p") return undefined;
  const folders = args.slice(1).map((folder) => (folder.startsWith("-") ? undefined : filePath(folder, cwd)));
  if (folders.length === 0 || !folders.every((folder) => folder !== undefined)) return undefined;
  return { writes: [], folders };
}

/** Where a statement's output goes: a file (replaced or appended), or a sink that keeps nothing. */
type Output = { path: string; append: boolean } | "sink";

/** A statement's input (heredoc or here-string text) and output file; undefined when any redirection is one not modelled. */
function readStreams(
  redirects: readonly ShellRedirect[],
  cwd: string,
): { input?: string; output?: Output } | undefined {
  let input: string | undefined;
  let output: Output | undefined;
  for (const redirect of redirects) {
    // `2>`, `1>`, `3<<EOF`: a descriptor moves streams around; not modelled.
    if (redirect.descriptor !== undefined) return undefined;
    if (redirect.kind === "heredoc" || redirect.kind === "herestring") {
      const text = redirectInput(redirect);
      if (text === undefined || input !== undefined) return undefined;
      input = text;
    } else if (redirect.kind === "write" && (redirect.operator === ">" || redirect.operator === ">>")) {
      const target = redirect.target;
      if (!target || !exactWord(target) || output !== undefined) return undefined;
      if (target.value === "/dev/null") output = "sink";
      else {
        const path = filePath(target.value, cwd);
        if (!path) return undefined;
        output = { path, append: redirect.operator === ">>" };
      }
    } else {
      // `<` reads a file, `>|` overrides noclobber, `&>` takes stderr too, `>&` duplicates: not modelled.
      return undefined;
    }
  }
  return { ...(input === undefined ? {} : { input }), ...(output ? { output } : {}) };
}

/** The text a heredoc or here-string feeds the command, when it is plain text. */
function redirectInput(redirect: ShellRedirect): string | undefined {
  if (redirect.kind === "heredoc") {
    // An unquoted heredoc expands `$x`, `$(...)` and backslashes in its body.
    return redirect.heredoc?.quoted ? redirect.heredoc.body : undefined;
  }
  const word = redirect.target;
  // bash adds a newline to a here-string.
  return word && exactWord(word) ? `${word.value}\n` : undefined;
}

/** A word bash takes for an assignment (`name=`, `name[i]=`, `name+=`): it expands `~` after its `=` and each `:`. */
const ASSIGNMENT_LIKE = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/**
 * True for a word whose value is exactly its bytes: literal, no `$'...'` (its `\xHH` escapes give bytes
 * that are not the UTF-8 of the decoded text), and no `~` in a word bash reads like an assignment, where
 * it expands even as an argument (`echo a=~/x` prints `a=/home/me/x`).
 */
function exactWord(word: ShellWord): boolean {
  const tilde = ASSIGNMENT_LIKE.test(word.text) && word.text.includes("~");
  return word.literal && !word.text.includes("$'") && !tilde;
}

/**
 * The absolute path a literal file name names. Undefined for names this module does not resolve exactly:
 * `~` (the shell's home, not known here), `..` (lexical resolution differs from the kernel's through a
 * symlinked folder), a name ending in `/` or `.`, control characters, and /dev or /proc.
 */
function filePath(name: string, cwd: string): string | undefined {
  const control = [...name].some((char) => char < " " || char === "\x7f");
  if (!name || name.startsWith("~") || control) return undefined;
  const segments = name.split("/");
  const last = segments.at(-1);
  if (segments.includes("..") || last === "" || last === ".") return undefined;
  const path = resolve(cwd, name);
  if (/^\/(dev|proc|sys)(\/|$)/.test(path)) return undefined;
  return path;
}
