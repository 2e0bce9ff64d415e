import type { Node } from "web-tree-sitter";
import type { LineStatement, ParsedCommand, ShellRedirect, StatementJoint } from "./parsed-line";

/** Nodes that are one simple command, maybe with redirections. */
const SIMPLE_NODES = new Set(["command", "redirected_statement"]);

/** Tokens that join two statements, as the grammar spells them. */
const JOINTS: ReadonlySet<string> = new Set([";", "&", "&&", "||", "|", "|&"]);

/**
 * The top-level statements of a line, in the order bash runs them, each with what joins it to the one
 * before. Only a plain simple command gets its `command`; anything else (a pipeline, a subshell, a loop,
 * a function, an assignment) is kept as a statement without one, so that a reader can stop there.
 * `commands` and `redirects` are what the walker made of the same tree; statements point at those records.
 * Only for a line the parser read whole: one where the grammar skipped text (`droppedText`) is an error.
 */
export function lineStatements(
  root: Node,
  commands: readonly ParsedCommand[],
  redirects: readonly ShellRedirect[],
): LineStatement[] {
  const reader = new StatementReader(commands, redirects);
  reader.sequence(root);
  return reader.statements;
}

class StatementReader {
  readonly statements: LineStatement[] = [];
  private readonly commandAt = new Map<number, ParsedCommand>();
  private readonly redirectAt = new Map<number, ShellRedirect>();

  constructor(commands: readonly ParsedCommand[], redirects: readonly ShellRedirect[]) {
    for (const command of commands) {
      if (command.context === "line" && !command.wrapper) this.commandAt.set(command.start, command);
    }
    for (const redirect of redirects) this.redirectAt.set(redirect.start, redirect);
  }

  /** The statements of the program: separated by `;`, `&` or newlines (no token between them). */
  sequence(node: Node): void {
    let joint: StatementJoint = "start";
    let first = 0;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        if (child.type === "&") this.background(first);
        joint = child.type === ";" || child.type === "&" ? child.type : "|";
        continue;
      }
      if (child.type === "comment") continue;
      first = this.statements.length;
      this.statement(child, joint);
      joint = "newline";
    }
  }

  private statement(node: Node, joint: StatementJoint): void {
    if (node.type === "list") {
      let next = joint;
      for (const child of node.children) {
        if (!child || child.type === "comment") continue;
        if (child.isNamed) this.statement(child, next);
        else next = this.joint(child.type);
      }
      return;
    }
    const body = node.type === "redirected_statement" ? node.childForFieldName("body") : node;
    if (body?.type === "list" && node.id !== body.id) {
      this.redirectedList(node, body, joint);
      return;
    }
    // Web-tree-sitter hands out a new object per visit: nodes are compared by id.
    const strays = node.children.some(
      (child, i) => child?.isNamed && child.id !== body?.id && node.fieldNameForChild(i) !== "redirect",
    );
    if (!SIMPLE_NODES.has(node.type) || body?.type !== "command" || (node.id !== body.id && strays)) {
      this.opaque(node, joint);
      return;
    }
    const command = this.commandAt.get(body.startIndex);
    const redirects: ShellRedirect[] = [];
    const rest: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child && node.fieldNameForChild(i) === "redirect") this.redirect(child, redirects, rest);
    }
    for (let i = 0; i < body.childCount; i++) {
      const child = body.child(i);
      if (child && body.fieldNameForChild(i) === "redirect") this.redirect(child, redirects, rest);
    }
    redirects.sort((a, b) => a.start - b.start);
    const first = this.statements.length;
    this.statements.push({
      joint,
      background: false,
      ...(command ? { command } : {}),
      redirects,
      start: node.startIndex,
      end: Math.max(command?.end ?? body.endIndex, ...redirects.map((redirect) => redirect.end)),
    });
    this.rest(rest, first);
  }

  /**
   * The grammar reads `a && b > f` as the list `a && b` redirected, but bash gives the redirection to the
   * last simple command (a list cannot be redirected without braces): it joins that statement's.
   */
  private redirectedList(node: Node, list: Node, joint: StatementJoint): void {
    const first = this.statements.length;
    this.statement(list, joint);
    const last = this.statements.at(-1);
    const redirects: ShellRedirect[] = [];
    const rest: Node[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child || child.id === list.id) continue;
      if (node.fieldNameForChild(i) === "redirect") this.redirect(child, redirects, rest);
      else if (child.isNamed) rest.push(child);
    }
    if (!last || this.statements.length === first) return;
    last.redirects = [...last.redirects, ...redirects].sort((a, b) => a.start - b.start);
    last.end = Math.max(last.end, ...redirects.map((redirect) => redirect.end));
    this.rest(rest, this.statements.length - 1);
  }

  /** A redirection and those the grammar nests in it; collects what follows a heredoc's delimiter. */
  private redirect(node: Node, into: ShellRedirect[], rest: Node[]): void {
    const redirect = this.redirectAt.get(node.startIndex);
    if (redirect) into.push(redirect);
    let operator = false;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      if (node.fieldNameForChild(i) === "redirect") this.redirect(child, into, rest);
      else if (!child.isNamed && !operator) operator = true;
      else if (node.type === "heredoc_redirect" && operator && !child.type.startsWith("heredoc_")) {
        // The grammar hangs `&& next`, `| next` and `&` after a heredoc's delimiter on the heredoc itself.
        rest.push(child);
      }
    }
  }

  /** The operators and statements the grammar hung on a heredoc: they follow the statement at `first`. */
  private rest(nodes: readonly Node[], first: number): void {
    let joint: StatementJoint | undefined;
    for (const node of nodes) {
      if (node.type === "comment") continue;
      if (!node.isNamed) {
        if (node.type === "&") this.background(first);
        joint = this.joint(node.type);
      } else if (node.type === "pipeline" && node.firstChild && !node.firstChild.isNamed) {
        // `cat <<'EOF' | tee a`: the pipeline node starts with the `|` that takes the heredoc's command's output.
        this.opaque(node, this.joint(node.firstChild.type));
      } else if (joint === undefined) {
        this.opaque(node, "newline");
      } else {
        this.statement(node, joint);
        joint = undefined;
      }
    }
  }

  private joint(token: string): StatementJoint {
    // An operator this reader does not know is taken as a pipe: whatever follows, nothing before it is trusted.
    return JOINTS.has(token) ? (token as StatementJoint) : "|";
  }

  private background(first: number): void {
    for (const statement of this.statements.slice(first)) statement.background = true;
  }

  private opaque(node: Node, joint: StatementJoint): void {
    this.statements.push({
      joint,
      background: false,
      redirects: [],
      start: node.startIndex,
      end: node.endIndex,
    });
  }
}

/** Text between tokens bash does not take for a blank: a backslash not before a newline (`\<CR><LF>` is none), a CR, \v, \f, anything else. */
const MISREAD_GAP = /\\(?!\n)|[^ \t\n\\]/;

/**
 * Where the grammar skipped text between tokens that bash reads as part of a word: tree-sitter-bash takes
 * `\ `, `\<tab>` and a CR for blanks, so to it `echo x \ > a` prints "x" (bash: "x  "), `\ cat` runs
 * cat (bash: " cat") and `echo x > a<CR><LF>` writes "a" (bash: "a<CR>"). Returns the first offset, or undefined.
 */
export function droppedText(root: Node, source: string): number | undefined {
  let covered = 0;
  const visit = (node: Node): number | undefined => {
    // A heredoc body's text between its expansions is body, not skipped: it counts as one piece.
    if (node.childCount === 0 || node.type === "heredoc_body") {
      const skipped = MISREAD_GAP.exec(source.slice(covered, node.startIndex));
      if (skipped) return covered + skipped.index;
      covered = Math.max(covered, node.endIndex);
      return undefined;
    }
    for (const child of node.children) {
      const found = child ? visit(child) : undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const found = visit(root);
  if (found !== undefined) return found;
  const tail = MISREAD_GAP.exec(source.slice(covered));
  return tail ? covered + tail.index : undefined;
}
