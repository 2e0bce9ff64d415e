/** A piece of a line of Markdown, as the renderer draws it. */
export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong" | "em" | "strike"; children: Inline[] }
  | { kind: "link"; href: string; children: Inline[] }
  | { kind: "break" };

/** Link targets a message may point at; anything else (javascript:, data:, file:) shows as plain text. */
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;
const PUNCTUATION = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;
const BARE_URL = /^https?:\/\/[^\s<>"]+/;

/** Whether a link target is one the UI will follow. */
export function isSafeHref(href: string): boolean {
  return SAFE_HREF.test(href.trim());
}

/**
 * Reads the inline Markdown a model writes: code spans, links, autolinks, strong, emphasis,
 * strikethrough, hard breaks and backslash escapes. HTML is not interpreted: it stays text.
 */
export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let text = "";
  const flush = () => {
    if (text) out.push({ kind: "text", text });
    text = "";
  };
  const emit = (node: Inline) => {
    flush();
    out.push(node);
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    const rest = source.slice(i);
    if (ch === "\\" && PUNCTUATION.test(source[i + 1] ?? "")) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (ch === "\\" && source[i + 1] === "\n") {
      emit({ kind: "break" });
      i += 2;
      continue;
    }
    if (ch === "\n") {
      // Two spaces before a newline make a hard break; otherwise it is a soft one.
      if (text.endsWith("  ")) {
        text = text.trimEnd();
        emit({ kind: "break" });
      } else text += "\n";
      i += 1;
      continue;
    }
    if (ch === "`") {
      const fence = /^`+/.exec(rest)?.[0] ?? "`";
      const close = findRun(source, fence, i + fence.length);
      if (close >= 0) {
        emit({ kind: "code", text: trimCode(source.slice(i + fence.length, close)) });
        i = close + fence.length;
      } else {
        text += fence;
        i += fence.length;
      }
      continue;
    }
    if (ch === "[" || (ch === "!" && source[i + 1] === "[")) {
      const link = readLink(source, ch === "!" ? i + 1 : i);
      if (link) {
        const children = parseInline(link.label);
        if (isSafeHref(link.href)) emit({ kind: "link", href: link.href.trim(), children });
        else for (const child of children) emit(child);
        i = link.end;
        continue;
      }
    }
    if (ch === "<") {
      const auto = /^<(https?:\/\/[^\s<>]+|mailto:[^\s<>]+)>/i.exec(rest);
      if (auto?.[1]) {
        emit({ kind: "link", href: auto[1], children: [{ kind: "text", text: auto[1] }] });
        i += auto[0].length;
        continue;
      }
    }
    if ((ch === "h" || ch === "H") && !WORD.test(source[i - 1] ?? "")) {
      const bare = BARE_URL.exec(rest)?.[0].replace(/[.,:;!?'")\]]+$/, "");
      if (bare) {
        emit({ kind: "link", href: bare, children: [{ kind: "text", text: bare }] });
        i += bare.length;
        continue;
      }
    }
    const emphasis = readEmphasis(source, i);
    if (emphasis) {
      emit({ kind: emphasis.kind, children: parseInline(emphasis.inner) });
      i = emphasis.end;
      continue;
    }
    text += ch;
    i += 1;
  }
  flush();
  return out;
}

/** Finds the next run of exactly `fence` backticks from `from`. */
function findRun(source: string, fence: string, from: number): number {
  for (let at = source.indexOf(fence, from); at >= 0; at = source.indexOf(fence, at + 1)) {
    const longer = source[at + fence.length] === "`" || source[at - 1] === "`";
    if (!longer) return at;
    while (source[at + 1] === "`") at += 1;
  }
  return -1;
}

/** A code span loses one space at each end when both are there, so `` `x` `` can hold a backtick. */
function trimCode(code: string): string {
  const flat = code.replace(/\n/g, " ");
  return flat.length > 2 && flat.startsWith(" ") && flat.endsWith(" ") ? flat.slice(1, -1) : flat;
}

/** Reads `[label](href "title")` at `at`; the title is dropped. */
function readLink(source: string, at: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let j = at; j < source.length; j++) {
    const c = source[j];
    if (c === "\\") j += 1;
    else if (c === "[") depth += 1;
    else if (c === "]" && --depth === 0) {
      close = j;
      break;
    } else if (c === "\n" && source[j + 1] === "\n") return null;
  }
  if (close < 0 || source[close + 1] !== "(") return null;
  const target = /^\(\s*<?([^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)>?(?:\s+"[^"]*")?\s*\)/.exec(
    source.slice(close + 1),
  );
  if (!target) return null;
  return { label: source.slice(at + 1, close), href: target[1] ?? "", end: close + 1 + target[0].length };
}

/** Reads `**x**`, `__x__`, `*x*`, `_x_` or `~~x~~` at `at`. */
function readEmphasis(
  source: string,
  at: number,
): { kind: "strong" | "em" | "strike"; inner: string; end: number } | null {
  const ch = source[at];
  if (ch !== "*" && ch !== "_" && ch !== "~") return null;
  const double = source[at + 1] === ch;
  if (ch === "~" && !double) return null;
  // Underscores inside words (snake_case) are not emphasis.
  if (ch === "_" && WORD.test(source[at - 1] ?? "")) return null;
  const marker = double ? ch + ch : ch;
  const start = at + marker.length;
  const first = source[start];
  if (first === undefined || /\s/.test(first) || first === ch) return null;
  for (let close = source.indexOf(marker, start + 1); close >= 0; close = source.indexOf(marker, close + 1)) {
    const before = source[close - 1] ?? "";
    const after = source[close + marker.length] ?? "";
    if (/\s/.test(before) || source.slice(start, close).includes("\n\n")) return null;
    if (!double && (after === ch || before === ch)) continue;
    if (ch === "_" && WORD.test(after)) continue;
    const kind = ch === "~" ? "strike" : double ? "strong" : "em";
    return { kind, inner: source.slice(start, close), end: close + marker.length };
  }
  return null;
}
