import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { Language, type Node, Parser } from "web-tree-sitter";
import { clip } from "../../base/text";
import { droppedText, lineStatements } from "./line-statements";
import type { ParsedCommandLine } from "./parsed-line";
import { walkShellTree } from "./shell-walker";

/** Zero-width and bidirectional control characters: they change how a line reads, not how it runs. */
const HIDDEN_CHARACTERS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** Longer lines are refused rather than parsed: nobody reviews a 100 KB command, and parsing is not free. */
export const MAX_COMMAND_LENGTH = 64 * 1024;

let parserPromise: Promise<Parser> | undefined;
let loadedParser: Parser | undefined;

/** Loads the WASM runtime and the bash grammar once; later calls share the same parser. */
export function loadShellParser(): Promise<Parser> {
  parserPromise ??= createParser().catch((error: unknown) => {
    // Let a later call retry instead of caching the failure forever.
    parserPromise = undefined;
    throw error;
  });
  return parserPromise;
}

async function createParser(): Promise<Parser> {
  // Resolved through Node's resolver rather than relative to this file, so the same code works from
  // source under vitest and from a bundled main process whose node_modules stay external.
  const require = createRequire(import.meta.url);
  const runtimeWasm = require.resolve("web-tree-sitter/tree-sitter.wasm");
  const grammarWasm = require.resolve("tree-sitter-bash/tree-sitter-bash.wasm");
  // Keep the parser's WebAssembly on V8's baseline compiler. Otherwise V8 re-compiles it with TurboFan in
  // the background over the first few hundred commands: a second or more of CPU and 30-50 MiB that, on
  // a small machine, made every command's fork dearer (measured: `npm run bench`, overhead phase).
  // Parsing one command line stays well under a millisecond on baseline code. Set before any
  // WebAssembly is compiled, which is when V8 reads it.
  setFlagsFromString("--liftoff-only");
  await Parser.init({ locateFile: () => runtimeWasm });
  const bash = await Language.load(grammarWasm);
  const parser = new Parser();
  parser.setLanguage(bash);
  loadedParser = parser;
  return parser;
}

/**
 * How many recently parsed command lines are kept, by their exact text. An agent working on "always allow"
 * sends the same few lines again and again (a test run, a build, `git status`); parsing one is most of
 * what checking it costs (about 0.2 ms of a small command's 6).
 */
const RECENT_LINES = 64;

/** The last `RECENT_LINES` lines parsed and what they parsed to (frozen, shared), oldest first. */
const recentLines = new Map<string, ParsedCommandLine>();

/**
 * Parses a command line with bash's grammar (Linux/macOS semantics). The result depends on the text
 * alone, so a line parsed recently is answered from memory; it is frozen, since every caller gets the same one.
 */
export async function parseCommandLine(source: string): Promise<ParsedCommandLine> {
  const known = recentLines.get(source);
  if (known) {
    // Most recently used last, so the oldest goes first.
    recentLines.delete(source);
    recentLines.set(source, known);
    return known;
  }
  const parser = await loadShellParser();
  const parsed = deepFreeze(parseWith(parser, source));
  recentLines.set(source, parsed);
  if (recentLines.size > RECENT_LINES) recentLines.delete(recentLines.keys().next().value as string);
  return parsed;
}

/** Freezes a plain data tree (objects and arrays) all the way down. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Parses synchronously, for callers that awaited `loadShellParser()` once (a UI highlighting as a person types). */
export function parseCommandLineSync(source: string): ParsedCommandLine {
  if (!loadedParser) {
    throw new Error(
      "The shell parser is not loaded yet: await loadShellParser() once before parsing synchronously.",
    );
  }
  return parseWith(loadedParser, source);
}

function parseWith(parser: Parser, source: string): ParsedCommandLine {
  const multiline = source.trimEnd().includes("\n");
  const empty = {
    source,
    commands: [],
    risks: [],
    redirects: [],
    assignments: [],
    statements: [],
    plain: false,
    multiline,
  };
  if (source.length > MAX_COMMAND_LENGTH) {
    return {
      ...empty,
      error: `The command line is ${source.length} characters long, more than the ${MAX_COMMAND_LENGTH} that are checked. Split it into shorter commands.`,
    };
  }
  const tree = parser.parse(source);
  if (!tree) {
    return { ...empty, error: "The shell parser gave up on this command line. Write it more simply." };
  }
  try {
    const walked = walkShellTree(tree.rootNode, source);
    const risks = [...walked.risks];
    let error = walked.problems[0];
    const broken = tree.rootNode.hasError ? firstBrokenNode(tree.rootNode) : undefined;
    if (tree.rootNode.hasError && !broken) {
      error = "The command line does not parse as bash. Check the quoting and brackets.";
    } else if (broken) {
      const where = broken.isMissing
        ? `a missing "${broken.type}" at offset ${broken.startIndex}`
        : `"${clip(broken.text)}" at offset ${broken.startIndex}`;
      error = `The command line does not parse as bash (${where}). Check the quoting and brackets, or split it into simpler commands.`;
      risks.push({
        kind: "parse-error",
        text: broken.text,
        start: broken.startIndex,
        end: broken.endIndex,
        note: "The shell grammar could not read this part.",
        say: { id: "unreadable" },
      });
    }
    const misread = error === undefined ? droppedText(tree.rootNode, source) : undefined;
    if (misread !== undefined) {
      const text = source.slice(misread, misread + 2);
      error = `bash reads the line differently from how it is checked at offset ${misread} (${JSON.stringify(text)}): a backslash before a blank, or a carriage return, vertical tab or form feed between words, is part of a word to bash. Quote the word or remove the character.`;
      risks.push({
        kind: "parse-error",
        text,
        start: misread,
        end: misread + text.length,
        note: "bash reads this character as part of a word; the checker cannot: quote the word.",
        say: { id: "misread" },
      });
    }
    for (const match of source.matchAll(HIDDEN_CHARACTERS)) {
      const note = "An invisible or direction-changing character: the line may not run the way it reads.";
      risks.push({
        kind: "hidden-character",
        text: match[0],
        start: match.index,
        end: match.index + match[0].length,
        note,
        say: { id: "hidden-character" },
      });
    }
    risks.sort((a, b) => a.start - b.start || b.end - a.end);
    const commands = [...walked.commands].sort((a, b) => a.start - b.start || b.end - a.end);
    const plain =
      error === undefined &&
      commands.length > 0 &&
      !walked.shellConstructs &&
      commands.every(
        (command) => command.literal && command.context === "line" && !command.assignments.length,
      ) &&
      risks.every((risk) => risk.kind === "pipeline" || risk.kind === "list");
    return {
      source,
      commands,
      risks,
      redirects: walked.redirects,
      assignments: walked.assignments,
      statements: error === undefined ? lineStatements(tree.rootNode, commands, walked.redirects) : [],
      plain,
      multiline,
      ...(error === undefined ? {} : { error }),
    };
  } finally {
    tree.delete();
  }
}

/** The first ERROR or MISSING node, depth first: where a person should look. */
function firstBrokenNode(node: Node): Node | undefined {
  if (node.type === "ERROR" || node.isMissing) return node;
  for (const child of node.children) {
    if (child && (child.hasError || child.isMissing || child.type === "ERROR")) {
      const found = firstBrokenNode(child);
      if (found) return found;
    }
  }
  return undefined;
}
