/**
 * The exact output of bash's `echo` and `printf` builtins for literal arguments, for the parts of them
 * modelled here; anything else gives undefined, never an approximation. Checked against /bin/bash in
 * test/main/run-command/shell/shell-writes.test.ts.
 */

/** An `echo` option word: bash takes a leading word as options only when every letter is one of n, e, E. */
const ECHO_OPTIONS = /^-[neE]+$/;

/**
 * What `echo ARGS` prints in bash (xpg_echo off, its default): the words joined by spaces and a newline,
 * unless `-n`. `-e` (escape sequences) is not modelled. A `--` is printed, not taken as an end of options.
 */
export function echoOutput(args: readonly string[]): string | undefined {
  let i = 0;
  let newline = true;
  for (; i < args.length && ECHO_OPTIONS.test(args[i] as string); i++) {
    const options = args[i] as string;
    if (options.includes("e")) return undefined;
    if (options.includes("n")) newline = false;
  }
  return args.slice(i).join(" ") + (newline ? "\n" : "");
}

/** One piece of a printf format: text to print, or a conversion that takes the next argument. */
type FormatPiece = { text: string } | { conversion: "s" | "d" };

/** The escapes of a printf format modelled here; bash knows more (\a, \0NNN, \xHH, \u, \c, ...). */
const FORMAT_ESCAPES: Record<string, string> = { n: "\n", t: "\t", "\\": "\\" };

/** A `%d` argument printed as written: a plain decimal that fits bash's 64-bit integers, no sign `+`, no leading zero (octal to bash). */
const DECIMAL = /^(?:0|-?[1-9][0-9]{0,17})$/;

/**
 * What `printf ARGS` prints in bash, for a format holding only text, `%s`, `%d`, `%%` and the escapes
 * `\n`, `\t`, `\\`. As in bash, the format is reused while arguments remain (if it took any), and a
 * conversion with no argument left prints "" (`%s`) or 0 (`%d`). Options (`-v var`) are not modelled.
 */
export function printfOutput(args: readonly string[]): string | undefined {
  const ended = args[0] === "--";
  const [format, ...values] = ended ? args.slice(1) : args;
  if (format === undefined || (!ended && format.startsWith("-"))) return undefined;
  const pieces = parseFormat(format);
  if (!pieces) return undefined;
  let out = "";
  let next = 0;
  do {
    const before = next;
    for (const piece of pieces) {
      if ("text" in piece) {
        out += piece.text;
        continue;
      }
      const value = next < values.length ? values[next++] : undefined;
      if (piece.conversion === "s") out += value ?? "";
      else if (value === undefined) out += "0";
      else if (DECIMAL.test(value)) out += value;
      else return undefined;
    }
    // bash prints the format once more only while arguments remain and the format consumes some.
    if (next === before) break;
  } while (next < values.length);
  return out;
}

function parseFormat(format: string): FormatPiece[] | undefined {
  const pieces: FormatPiece[] = [];
  let text = "";
  for (let i = 0; i < format.length; i++) {
    const char = format[i] as string;
    const next = format[i + 1];
    if (char === "\\") {
      const escaped = next === undefined ? undefined : FORMAT_ESCAPES[next];
      if (escaped === undefined) return undefined;
      text += escaped;
      i++;
    } else if (char === "%") {
      if (next === "%") text += "%";
      else if (next === "s" || next === "d") {
        if (text) pieces.push({ text });
        text = "";
        pieces.push({ conversion: next });
      } else return undefined;
      i++;
    } else text += char;
  }
  if (text) pieces.push({ text });
  return pieces;
}
