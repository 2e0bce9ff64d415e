import type { Node } from "web-tree-sitter";

/** One shell word (a command name, an argument, a redirection target) with what the shell will make of it. */
export interface ShellWord {
  /** The word as written in the command line. */
  text: string;
  /** The word after quote removal when `literal`; otherwise the source text again. */
  value: string;
  /** True when the word is plain text: no expansion, substitution, glob, brace or tilde. */
  literal: boolean;
  /** True when part of the word is only known at run time: `$X`, `${X}`, `$(...)`, `$((...))`, backticks. */
  dynamic: boolean;
  /** Offset of the word's first character in the command line (UTF-16 code units). */
  start: number;
  /** Offset just past the word's last character. */
  end: number;
}

/** What a piece of a word contributes: its text after quote removal (if static) and a quote-free mask. */
interface WordPart {
  value: string | undefined;
  /** The unquoted characters as written, quoted and escaped ones replaced by `_`: where globs and braces live. */
  mask: string;
  dynamic: boolean;
}

/**
 * A word shaped like an assignment (`name=`, `name[i]=`, `name+=`) with a tilde after its `=` or a `:`:
 * bash expands those even when the word is an argument (`dd of=~/x` writes under $HOME). Quoted
 * characters are `_` in the mask, so a quoted name errs toward "expanded".
 */
const ASSIGNMENT_TILDE = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=(~|.*:~)/s;

/** Reads a word node (word, string, concatenation, ...) the way bash would see it before running. */
export function readWord(node: Node): ShellWord {
  const part = readPart(node);
  // Globs, brace expansion and a tilde turn one written word into something decided at run time.
  const pattern =
    /[*?[]/.test(part.mask) ||
    /\{[^{}]*(,|\.\.)[^{}]*\}/.test(part.mask) ||
    part.mask.startsWith("~") ||
    ASSIGNMENT_TILDE.test(part.mask);
  const literal = part.value !== undefined && !pattern && !part.dynamic;
  return {
    text: node.text,
    value: literal && part.value !== undefined ? part.value : node.text,
    literal,
    dynamic: part.dynamic,
    start: node.startIndex,
    end: node.endIndex,
  };
}

/** Builds a word for a bare token the grammar gives no word node for (`export`, `unset`). */
export function tokenWord(node: Node): ShellWord {
  return {
    text: node.text,
    value: node.text,
    literal: true,
    dynamic: false,
    start: node.startIndex,
    end: node.endIndex,
  };
}

function readPart(node: Node): WordPart {
  const text = node.text;
  switch (node.type) {
    case "word":
    case "number":
    case "variable_name": {
      // A `$` or backtick the grammar left inside a word is either a lone literal `$` or something it
      // misread; either way the word is not trusted as plain text.
      if (/[$`]/.test(text)) return { value: undefined, mask: text, dynamic: false };
      return { value: unescapeUnquoted(text), mask: text.replace(/\\[\s\S]/g, "__"), dynamic: false };
    }
    case "raw_string":
      return { value: text.slice(1, -1), mask: "_", dynamic: false };
    case "string":
      return readDoubleQuoted(node);
    case "ansi_c_string":
      return { value: decodeAnsiC(text.slice(2, -1)), mask: "_", dynamic: false };
    case "concatenation": {
      const children = node.namedChildren.filter((child) => child !== null);
      // The grammar sometimes skips text between the pieces (```a``b```); then it did not read the word.
      const contiguous = children.every(
        (child, i) => child.startIndex === (i === 0 ? node.startIndex : children[i - 1]?.endIndex),
      );
      if (!contiguous || children.at(-1)?.endIndex !== node.endIndex) {
        return { value: undefined, mask: "$", dynamic: true };
      }
      const parts = children.map(readPart);
      const values = parts.map((part) => part.value);
      return {
        value: values.every((value) => value !== undefined) ? values.join("") : undefined,
        mask: parts.map((part) => part.mask).join(""),
        dynamic: parts.some((part) => part.dynamic),
      };
    }
    case "brace_expression":
      return { value: undefined, mask: "{,}", dynamic: false };
    case "extglob_pattern":
      return { value: undefined, mask: "*", dynamic: false };
    default:
      // Expansions, substitutions and anything this reader does not know are decided at run time.
      return { value: undefined, mask: "$", dynamic: true };
  }
}

/** A double-quoted string is static only when it holds nothing but text (no `$`, no backtick). */
function readDoubleQuoted(node: Node): WordPart {
  const onlyText = node.namedChildren.every((child) => child?.type === "string_content");
  if (!onlyText) return { value: undefined, mask: "_", dynamic: true };
  const inner = node.text.slice(1, -1);
  let value = "";
  for (let i = 0; i < inner.length; i++) {
    const char = inner[i] as string;
    if (char === "\\" && i + 1 < inner.length) {
      const next = inner[i + 1] as string;
      // Inside double quotes a backslash only escapes these; elsewhere it stays.
      if (next === "\n") {
        i++;
        continue;
      }
      if ('$`"\\'.includes(next)) {
        value += next;
        i++;
        continue;
      }
      value += char;
      continue;
    }
    // `$` starts an expansion only before a name, a brace, a paren or a special parameter; `"a $ b"` is text.
    if (char === "`" || (char === "$" && /^[A-Za-z_{([0-9@*#?$!-]/.test(inner.slice(i + 1)))) {
      return { value: undefined, mask: "_", dynamic: true };
    }
    value += char;
  }
  return { value, mask: "_", dynamic: false };
}

/** Quote removal for an unquoted word: `\x` is `x`, a backslash-newline disappears. */
function unescapeUnquoted(text: string): string {
  return text.replace(/\\(\n|[\s\S])/g, (_match, char: string) => (char === "\n" ? "" : char));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Decodes the body of `$'...'` as bash does, so `$'\x63at'` is seen as `cat`. */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char !== "\\" || i + 1 >= body.length) {
      out += char;
      continue;
    }
    const next = body[i + 1] as string;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const numeric = /^(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8}))/.exec(
      body.slice(i + 1),
    );
    if (numeric) {
      const [whole, octal, hex, u4, u8] = numeric;
      const code = octal
        ? Number.parseInt(octal, 8) & 0xff
        : Number.parseInt((hex ?? u4 ?? u8) as string, 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
      i += whole.length;
      continue;
    }
    if (next === "c" && i + 2 < body.length) {
      out += String.fromCharCode((body.charCodeAt(i + 2) & 0x1f) >>> 0);
      i += 2;
      continue;
    }
    // bash keeps an unknown escape as written.
    out += char;
  }
  return out;
}
