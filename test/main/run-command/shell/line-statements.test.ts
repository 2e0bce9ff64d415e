import { describe, expect, it } from "vitest";
import type { ParsedCommandLine } from "../../../../src/main/run-command/shell/parsed-line";
import { parseCommandLine } from "../../../../src/main/run-command/shell/shell-parser";

/** Each statement as `joint name args… [&]`, or `joint ?` for one that is not a simple command. */
const shape = (parsed: ParsedCommandLine) =>
  parsed.statements.map((statement) => {
    const what = statement.command ? [statement.command.name, ...statement.command.args].join(" ") : "?";
    return `${statement.joint} ${what}${statement.background ? " &" : ""}`;
  });

describe("the line's statements", () => {
  it("keeps the top-level statements in order with what joins them", async () => {
    const parsed = await parseCommandLine("a 1; b && c || d\ne & f | g\n(h)");
    expect(shape(parsed)).toEqual(["start a 1", "; b", "&& c", "|| d", "newline e &", "& ?", "newline ?"]);
  });

  it("puts a whole list in the background when an & ends it", async () => {
    expect(shape(await parseCommandLine("a && b &"))).toEqual(["start a &", "&& b &"]);
  });

  it("gives a redirection after a list to the last command, as bash does", async () => {
    // tree-sitter-bash reads this as the list `a > x && b` redirected to y.
    const parsed = await parseCommandLine("a > x && b > y");
    expect(parsed.statements.map((statement) => statement.redirects.map((r) => r.target?.value))).toEqual([
      ["x"],
      ["y"],
    ]);
  });

  it("reads what the grammar hangs on a heredoc as the statements that follow", async () => {
    const parsed = await parseCommandLine("cat <<'EOF' > a && echo x >> b\nbody\nEOF\nnext");
    expect(shape(parsed)).toEqual(["start cat", "&& echo x", "newline next"]);
    expect(parsed.statements[0]?.redirects.map((redirect) => redirect.operator)).toEqual(["<<", ">"]);
    const piped = await parseCommandLine("cat <<'EOF' | tee a\nbody\nEOF");
    expect(shape(piped)).toEqual(["start cat", "| ?"]);
  });

  it("keeps a statement the grammar misread opaque", async () => {
    // bash runs " cat" here, the grammar "cat": nothing in the line is trusted (and the parser says so).
    const misread = await parseCommandLine("\\ cat > a");
    expect(misread.error).toBeDefined();
    expect(shape(misread)).toEqual([]);
    expect(shape(await parseCommandLine("echo a \\\n b > c"))).toEqual(["start echo a b"]);
    expect(await parseCommandLine("echo x; if")).toMatchObject({ statements: [] });
  });
});

describe("heredoc facts", () => {
  const heredocOf = async (line: string) =>
    (await parseCommandLine(line)).redirects.find((redirect) => redirect.kind === "heredoc")?.heredoc;

  it("reads the delimiter, its quoting and the body", async () => {
    expect(await heredocOf("cat <<'EOF'\n$a\n\nEOF")).toEqual({
      delimiter: "EOF",
      quoted: true,
      stripTabs: false,
      body: "$a\n\n",
    });
    expect(await heredocOf('cat <<"E-1"\nx\nE-1')).toMatchObject({ delimiter: "E-1", quoted: true });
    expect(await heredocOf("cat <<\\EOF\nx\nEOF")).toMatchObject({ delimiter: "EOF", quoted: true });
    expect(await heredocOf("cat <<EOF\nx\nEOF")).toMatchObject({ delimiter: "EOF", quoted: false });
  });

  it("strips leading tabs for <<-, from the body and the delimiter line", async () => {
    expect(await heredocOf("cat <<-'EOF'\n\t\ta\n \tb\n\tEOF")).toMatchObject({
      stripTabs: true,
      body: "a\n \tb\n",
    });
  });

  it("leaves the body unknown where bash and the grammar end it differently", async () => {
    // The grammar ends these at "EOFX" and "EOF "; bash only at a line that is exactly EOF.
    expect((await heredocOf("cat <<'EOF'\nEOFX\nEOF"))?.body).toBeUndefined();
    expect((await heredocOf("cat <<'EOF'\nEOF \nEOF"))?.body).toBeUndefined();
    // No delimiter line at all: bash reads to the end of the input.
    expect((await heredocOf("cat <<'EOF'\nx"))?.body).toBeUndefined();
  });
});
