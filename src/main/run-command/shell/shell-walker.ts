import type { Node } from "web-tree-sitter";
import type { EvaluationText, RiskText } from "../../../shared/host-text";
import { clip } from "../../base/text";
import { assignmentRecord, type CommandPlace, commandRecords } from "./command-records";
import { assignedByExpansion, declarationArgument, evaluationAt, redirectVariable } from "./expansion-rules";
import type {
  AssignmentScope,
  CommandContext,
  ParsedCommand,
  ShellAssignment,
  ShellRedirect,
  ShellRisk,
  ShellRiskKind,
} from "./parsed-line";
import {
  COMPOUND_NODES,
  KEYWORD_NODES,
  RISK_NOTES,
  SEQUENCE_NODES,
  TRANSPARENT_NODES,
  unreadExpansion,
  wordsBashJoins,
} from "./shell-grammar";
import { readRedirect } from "./shell-redirects";
import { readWord, type ShellWord, tokenWord } from "./shell-words";

/** What a walk over a bash syntax tree found. */
export interface WalkResult {
  /** Simple commands, in the order they were met. */
  commands: ParsedCommand[];
  /** Constructs to look at twice. */
  risks: ShellRisk[];
  /** Redirections, harmless ones included. */
  redirects: ShellRedirect[];
  /** Variable assignments. */
  assignments: ShellAssignment[];
  /** Constructs the walker does not understand; any entry means the line must be refused. */
  problems: string[];
  /** True when the line uses more than simple commands: compound statements, functions, declarations. */
  shellConstructs: boolean;
}

type Span = Pick<Node, "text" | "startIndex" | "endIndex">;

/** Walks a bash syntax tree into commands, risks, redirections and assignments. */
export function walkShellTree(root: Node, source: string): WalkResult {
  const walker = new ShellWalker(source);
  walker.visit(root, "line");
  return walker.result;
}

class ShellWalker {
  readonly result: WalkResult = {
    commands: [],
    risks: [],
    redirects: [],
    assignments: [],
    problems: [],
    shellConstructs: false,
  };

  constructor(private readonly source: string) {}

  visit(node: Node, context: CommandContext): void {
    const type = node.type;
    const unread = unreadExpansion(node);
    if (unread) this.result.problems.push(unread);
    const evaluation = evaluationAt(node);
    if (evaluation)
      this.risk(evaluation.kind, node, undefined, evaluation.refusal, undefined, evaluation.say);
    if (type === "command") this.command(node, context, []);
    else if (type === "redirected_statement") this.redirectedStatement(node, context);
    else if (type === "declaration_command" || type === "unset_command") this.declaration(node, context);
    else if (type === "variable_assignment") this.assignment(node, "shell", context);
    else if (type.endsWith("_redirect")) this.noExtraWords(this.redirect(node, context), node);
    else if (type === "command_substitution") {
      this.risk("command-substitution", node);
      this.children(node, "substitution");
    } else if (type === "process_substitution") {
      this.risk("process-substitution", node);
      this.children(node, "process-substitution");
    } else if (type === "subshell") {
      this.construct("subshell", node);
      this.children(node, "subshell");
    } else if (type === "compound_statement") {
      // `(( ... ))` is arithmetic; `{ ...; }` is a group of commands.
      const arithmetic = node.firstChild?.type === "((";
      this.result.shellConstructs = true;
      if (!arithmetic) this.risk("group", node);
      this.children(node, arithmetic ? context : "group");
    } else if (type === "function_definition") {
      this.construct("function", node);
      this.children(node, "function");
    } else if (type === "simple_expansion" || type === "expansion" || type === "arithmetic_expansion") {
      this.risk("expansion", node);
      const assigned = assignedByExpansion(node);
      if (assigned) this.recordAssignment(assigned, undefined, "shell", node);
      this.children(node, context);
    } else if (type === "comment") {
      this.risk("comment", node);
    } else if (COMPOUND_NODES.has(type)) {
      this.compound(node);
    } else if (TRANSPARENT_NODES.has(type) || !node.isNamed) {
      this.children(node, context);
    } else {
      // ERROR nodes land here too; the parser reports those with a position.
      this.result.problems.push(
        `The command line uses a shell construct the checker does not handle ("${type}"). Write it more simply.`,
      );
    }
  }

  private compound(node: Node): void {
    this.result.shellConstructs = true;
    const keyword = node.firstChild;
    if (keyword && KEYWORD_NODES.has(node.type)) {
      const note = `A "${keyword.type}" statement: the commands in it may run many times or not at all.`;
      this.risk("compound", keyword, note, undefined, { id: "compound", keyword: keyword.type });
    }
    const variable = node.type === "for_statement" ? node.childForFieldName("variable") : null;
    if (variable) this.recordAssignment(variable.text, undefined, "loop", variable);
    this.children(node, "compound");
  }

  private children(node: Node, context: CommandContext): void {
    let previous: Node | undefined;
    let separated = true;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        this.operator(node, child);
        if (child.type === ";" || child.type === "&") separated = true;
        continue;
      }
      if (SEQUENCE_NODES.has(node.type) && previous && !separated && child.type !== "comment") {
        // Statements with no token between them were separated by a newline.
        const gap = {
          text: this.source.slice(previous.endIndex, child.startIndex),
          startIndex: previous.endIndex,
          endIndex: child.startIndex,
        };
        this.risk("newline", gap);
      }
      this.visit(child, context);
      if (child.type !== "comment") {
        previous = child;
        separated = false;
      }
    }
  }

  private operator(parent: Node, token: Node): void {
    const kind = token.type;
    const afterHeredoc = parent.type === "heredoc_redirect";
    if ((kind === "&&" || kind === "||") && (parent.type === "list" || afterHeredoc)) {
      const note = `"${kind}" runs the next command depending on how this one ends.`;
      this.risk("list", token, note, undefined, { id: "list-operator", operator: kind });
    } else if ((kind === "|" || kind === "|&") && (parent.type === "pipeline" || afterHeredoc)) {
      this.risk("pipeline", token);
    } else if (kind === ";" && SEQUENCE_NODES.has(parent.type)) {
      this.risk("list", token);
    } else if (
      kind === "&" &&
      (SEQUENCE_NODES.has(parent.type) || COMPOUND_NODES.has(parent.type) || parent.type === "list")
    ) {
      this.risk("background", token);
    }
  }

  private command(node: Node, context: CommandContext, extraWords: Node[]): void {
    let nameNode: Node | undefined;
    const argNodes: Node[] = [];
    const prefixes: string[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      const field = node.fieldNameForChild(i);
      if (!child) continue;
      if (field === "name") nameNode = child;
      else if (field === "argument") argNodes.push(child);
      else if (field === "redirect") this.noExtraWords(this.redirect(child, context), child);
      else if (child.type === "variable_assignment") {
        this.assignment(child, "prefix", context);
        prefixes.push(child.text);
      } else if (child.type === "comment") this.visit(child, context);
      else if (child.isNamed)
        this.result.problems.push(`The checker cannot read part of "${clip(node.text)}".`);
    }
    if (!nameNode) {
      this.result.problems.push(`"${clip(node.text)}" has no command name the checker can read.`);
      return;
    }
    const wordNodes = [nameNode, ...argNodes, ...extraWords].sort((a, b) => a.startIndex - b.startIndex);
    for (const word of wordNodes) this.visit(word, context);
    const joined = wordsBashJoins(wordNodes, this.source);
    if (joined) this.result.problems.push(joined);
    const nameWord = readWord(nameNode.firstNamedChild ?? nameNode);
    const argWords = [...argNodes, ...extraWords].map(readWord);
    for (const word of [nameWord, ...argWords]) {
      if (!word.literal && !word.dynamic) {
        this.risk(
          "expansion",
          wordSpan(word),
          "A pattern (glob, braces or ~) the shell expands when it runs.",
          undefined,
          { id: "pattern" },
        );
      }
    }
    const end = Math.max(node.endIndex, ...extraWords.map((word) => word.endIndex));
    this.addCommand(nameWord, argWords, { start: node.startIndex, end, context, assignments: prefixes });
  }

  private addCommand(nameWord: ShellWord, argWords: ShellWord[], place: CommandPlace): void {
    const records = commandRecords(nameWord, argWords, place, this.source);
    this.result.commands.push(...records.commands);
    this.result.risks.push(...records.risks);
    this.result.assignments.push(...records.assignments);
  }

  /** `export A=1 B`, `declare -x C=2`, `local d`, `unset E`: a builtin command that sets variables. */
  private declaration(node: Node, context: CommandContext): void {
    const keyword = node.firstChild;
    if (!keyword) return;
    this.result.shellConstructs = true;
    const children = node.namedChildren.filter((child) => child !== null);
    // `export`, and `declare -x`/`typeset -gx`, put the variables in the environment of later commands.
    const exports = keyword.type === "export" || children.some((child) => /^-[a-zA-Z]*x/.test(child.text));
    const integer = children.find((child) => /^-[a-zA-Z]*i/.test(child.text));
    if (integer) {
      this.risk(
        "arithmetic",
        integer,
        "Makes the variables integers: every value given them is evaluated as arithmetic.",
        undefined,
        { id: "integer" },
      );
    }
    const argWords: ShellWord[] = [];
    const scope = exports ? "export" : "shell";
    for (const child of children) {
      if (child.type === "variable_assignment") {
        this.assignment(child, scope, context);
        argWords.push({ ...tokenWord(child), literal: false });
      } else {
        this.visit(child, context);
        argWords.push(readWord(child));
      }
      const declared = declarationArgument(keyword.type, child);
      if (declared.assigns)
        this.recordAssignment(declared.assigns.name, declared.assigns.value, scope, child);
      if (declared.rereads)
        this.risk("evaluation", child, undefined, declared.rereads, undefined, {
          id: "rereads",
          keyword: keyword.type,
        });
    }
    const place = { start: node.startIndex, end: node.endIndex, context, assignments: [] };
    this.addCommand(tokenWord(keyword), argWords, place);
  }

  private assignment(node: Node, scope: AssignmentScope, context: CommandContext): void {
    const name = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (name) this.visit(name, context);
    if (value) this.visit(value, context);
    this.recordAssignment(name?.text ?? node.text, value ? readWord(value) : undefined, scope, node);
  }

  private recordAssignment(
    name: string,
    value: ShellWord | undefined,
    scope: AssignmentScope,
    at: Span,
  ): void {
    const record = assignmentRecord(name, value, scope, {
      text: at.text,
      start: at.startIndex,
      end: at.endIndex,
    });
    this.result.assignments.push(record.assignment);
    this.result.risks.push(record.risk);
  }

  private redirectedStatement(node: Node, context: CommandContext): void {
    const extraWords: Node[] = [];
    let body: Node | undefined;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      const field = node.fieldNameForChild(i);
      if (!child) continue;
      if (field === "body") body = child;
      else if (field === "redirect") extraWords.push(...this.redirect(child, context));
      else if (child.isNamed) this.visit(child, context);
    }
    if (body?.type === "command") {
      this.command(body, context, extraWords);
      return;
    }
    this.noExtraWords(extraWords, node);
    if (body) this.visit(body, context);
  }

  /** Records a redirection; returns the words the grammar hung on it that bash gives to the command. */
  private redirect(node: Node, context: CommandContext): Node[] {
    const parts = readRedirect(node, this.source);
    const { redirect } = parts;
    for (const token of parts.operators) this.operator(node, token);
    for (const child of parts.walk) this.visit(child, context);
    const extra = [...parts.extraWords, ...parts.nested.flatMap((nested) => this.redirect(nested, context))];
    this.result.redirects.push(redirect);
    const variable = redirectVariable(this.source, node.startIndex);
    if (variable) this.recordAssignment(variable.name, undefined, "shell", variable);
    const span = { text: redirect.text, startIndex: redirect.start, endIndex: redirect.end };
    const say = { id: "redirect", kind: redirect.kind } as const;
    if (redirect.kind === "heredoc") this.risk("heredoc", span, parts.note, undefined, say);
    else if (!redirect.harmless) this.risk("redirection", span, parts.note, undefined, say);
    if (parts.problem) this.result.problems.push(parts.problem);
    return extra;
  }

  private noExtraWords(extra: Node[], at: Node): void {
    if (extra.length === 0) return;
    this.result.problems.push(
      `The checker cannot tell which command the words after "${clip(at.text)}" belong to. Put redirections at the end of the command.`,
    );
  }

  private construct(kind: ShellRiskKind, node: Span): void {
    this.result.shellConstructs = true;
    this.risk(kind, node);
  }

  /** Records a risk; a note of its own comes with its `say` (else the kind's fixed note is meant). */
  private risk(
    kind: ShellRiskKind,
    node: Span,
    note?: string,
    refusal?: string,
    say?: RiskText,
    refusalSay?: EvaluationText,
  ): void {
    const at = { text: node.text, start: node.startIndex, end: node.endIndex };
    const words: RiskText = say ?? { id: "fixed", kind };
    this.result.risks.push({
      kind,
      ...at,
      note: note ?? RISK_NOTES[kind] ?? "",
      say: words,
      ...(refusal ? { refusal } : {}),
      ...(refusal && refusalSay ? { refusalSay } : {}),
    });
  }
}

function wordSpan(word: ShellWord): Span {
  return { text: word.text, startIndex: word.start, endIndex: word.end };
}
