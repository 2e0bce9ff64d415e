import { readWrapper, UNCHECKABLE_COMMANDS, UNCHECKABLE_GROUPS } from "./command-wrappers";
import type {
  AssignmentScope,
  CommandContext,
  ParsedCommand,
  ShellAssignment,
  ShellRisk,
} from "./parsed-line";
import type { ShellWord } from "./shell-words";

/** Where a command sits: its span in the line, and what runs it. */
export interface CommandPlace {
  /** Offset of its first character (prefix assignments and redirections included). */
  start: number;
  /** Offset just past its last character. */
  end: number;
  /** Where it sits in the line. */
  context: CommandContext;
  /** `NAME=value` prefixes as written. */
  assignments: string[];
  /** The wrapper whose arguments it is, if any. */
  wrapper?: string;
}

/** Records built from one simple command: itself, what its wrappers run, and what it asks a person to notice. */
export interface CommandRecords {
  /** The command, then each command a wrapper in it runs. */
  commands: ParsedCommand[];
  /** Wrapper, eval and look-alike risks, and the risks of `env NAME=value` assignments. */
  risks: ShellRisk[];
  /** `env NAME=value` assignments. */
  assignments: ShellAssignment[];
}

/** Builds the records of a command, then of the command a wrapper (`env`, `timeout`, ...) runs, recursively. */
export function commandRecords(
  nameWord: ShellWord,
  argWords: ShellWord[],
  place: CommandPlace,
  source: string,
  into: CommandRecords = { commands: [], risks: [], assignments: [] },
): CommandRecords {
  const name = nameWord.literal ? nameWord.value : "";
  const { wrapper, ...rest } = place;
  into.commands.push({
    name,
    args: argWords.map((word) => word.value),
    text: source.slice(place.start, place.end),
    literal: nameWord.literal && argWords.every((word) => word.literal),
    nameWord,
    argWords,
    ...rest,
    ...(wrapper ? { wrapper } : {}),
  });
  const at = { text: nameWord.text, start: nameWord.start, end: nameWord.end };
  if (/[^\x21-\x7e]/.test(name)) {
    const note = `The name "${name}" has characters outside plain ASCII: it may look like another name.`;
    into.risks.push({ kind: "lookalike", ...at, note, say: { id: "lookalike", name } });
  }
  const why = UNCHECKABLE_COMMANDS.get(name);
  if (why) {
    const kind = name === "eval" || name === "source" || name === "." ? "eval" : "wrapper";
    const group = UNCHECKABLE_GROUPS.get(name) ?? "";
    into.risks.push({ kind, ...at, note: `"${name}" ${why}.`, say: { id: "unchecked", name, group } });
  }
  const reading = readWrapper(name, argWords);
  if (reading?.kind !== "runs") return into;
  const inner = argWords[reading.index] as ShellWord;
  if (!why)
    into.risks.push({
      kind: "wrapper",
      ...at,
      note: `"${name}" runs the command that follows it: ${inner.text}.`,
      say: { id: "runs-next", name, inner: inner.text },
    });
  for (const index of reading.assignments) {
    const word = argWords[index] as ShellWord;
    const variable = word.value.slice(0, word.value.indexOf("="));
    const value = word.value.slice(variable.length + 1);
    const record = assignmentRecord(variable, { ...word, text: value, value }, "env", word);
    into.assignments.push(record.assignment);
    into.risks.push(record.risk);
  }
  const last = argWords[argWords.length - 1] as ShellWord;
  const innerPlace = {
    start: inner.start,
    end: last.end,
    context: "wrapper" as const,
    assignments: [],
    wrapper: name,
  };
  return commandRecords(inner, argWords.slice(reading.index + 1), innerPlace, source, into);
}

/** An assignment and the risk that points a person at it. */
export function assignmentRecord(
  name: string,
  value: ShellWord | undefined,
  scope: AssignmentScope,
  at: { text: string; start: number; end: number },
): { assignment: ShellAssignment; risk: ShellRisk } {
  const where = { text: at.text, start: at.start, end: at.end };
  const reach = scope === "shell" || scope === "loop" ? "the shell" : "the command's environment";
  return {
    assignment: { name, ...(value ? { value } : {}), scope, ...where },
    risk: {
      kind: "assignment",
      ...where,
      note: `Sets the variable ${name} in ${reach}.`,
      say: { id: "assignment", name, reach: scope === "shell" || scope === "loop" ? "shell" : "environment" },
    },
  };
}
