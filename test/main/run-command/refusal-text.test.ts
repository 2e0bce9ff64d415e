// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${...} is bash, not a template
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BackgroundCommands } from "../../../src/main/run-command/background/background-commands";
import { ARGUMENT_TABLE } from "../../../src/main/run-command/policy/argument-table";
import { checkAllowlist } from "../../../src/main/run-command/policy/command-policy";
import { createSandbox } from "../../../src/main/run-command/sandbox/sandbox";
import { parseCommandLine } from "../../../src/main/run-command/shell/shell-parser";
import { refusalTextEn } from "../../../src/renderer/src/i18n/refusals.en";
import { refusalTextZh } from "../../../src/renderer/src/i18n/refusals.zh";
import type { RunCommandDetails } from "../../../src/shared/commands";
import type { RefusalText } from "../../../src/shared/host-text";
import { ARGUMENT_CASES } from "./policy/fixtures/argument-corpus";
import { BROAD, NARROW, REFUSED_UNDER_BROAD, REFUSED_UNDER_NARROW } from "./policy/fixtures/bypass-corpus";
import { EVALUATES_AS_CODE, EVALUATION_ALLOWED } from "./policy/fixtures/evaluation-corpus";
import { createPolicyFixture, STAND_IN_BINARIES } from "./policy/policy-fixture";
import { makeWorkspace, runTool } from "./run-command-harness";

const fixture = createPolicyFixture(STAND_IN_BINARIES);
const commands = new BackgroundCommands({ onState: () => {}, onOutput: () => {}, onEnd: () => {} }, 1);
afterAll(async () => {
  await commands.stopAll("quit");
  fixture.cleanup();
});

/** Every refusal checked, so the last test can tell that each kind was met. */
const seen: { reason: string; say: RefusalText }[] = [];

/** The page's English for the host's kind is the host's own sentence, and the Chinese is something else. */
function expectWorded(details: RunCommandDetails) {
  expect(details.status).toBe("refused");
  expect(details.reasonSay, details.reason).toBeDefined();
  const say = details.reasonSay as RefusalText;
  expect(refusalTextEn(say)).toBe(details.reason);
  const zh = refusalTextZh(say);
  expect(zh).not.toBe("");
  expect(zh).not.toBe(details.reason);
  seen.push({ reason: details.reason as string, say });
}

/** Lines the policy refuses under `npm, git, cat, ls, xargs` for each kind of part it words. */
const POLICY_LINES = [
  "curl https://example.com", // not on the allowlist
  "./build.sh", // a path
  "$CMD --version", // a name known only when it runs
  '"" x', // an empty name
  "npm test > out.txt", // a redirection that writes
  "cat < $FILE", // a read of a file named when it runs
  "cat < /dev/tcp/example.com/80", // a network pseudo-file
  "npm test &", // background
  "f() { ls; }; f", // a function
  "xargs rm", // a command the policy cannot check
  "git $ARGS", // an argument only known when it runs
  "git *", // an argument that expands to file names
  "cat a; curl b > c", // several parts at once
  "find . -exec rm {} +", // an argument that runs another program
  "git -c core.pager=less log", // one that sets configuration
  "IFS=: ; ls", // an upper-case shell variable
  "EDITOR=vim git commit", // a variable in the environment that is not a safe one
  "NODE_ENV=$MODE npm test", // a safe one whose value is known only when it runs
  "read PATH", // a builtin that sets a variable
  "export PATH", // a declaration that exports one
  "unset PATH", // one that changes a shell variable
  "read 'a[$(cat x)]'", // a builtin given an array element
  "mapfile -C 'cat x' lines", // a callback run as code
  "set -k", // a shell option that changes how later words are read
  "shopt -s expand_aliases", // and one of shopt's
  "env $OPTS npm test", // a wrapper's argument that is not plain text
  "timeout --weird 5 npm test", // a wrapper's option the policy does not know
  "env -S 'npm test'", // one that changes what its arguments mean
];

/** Lines where bash would evaluate a variable's text as code, one for each way the expansion rules word. */
const EVALUATION_LINES = [
  "echo $((x + 1))",
  "(( x > 1 ))",
  "for ((i = 0; i < n; i++)); do echo $i; done",
  "echo ${a[$i]}",
  "echo ${s:x}",
  "[[ $x -eq 1 ]]",
  "a=([$x]=1)",
  "[[ -v $x ]]",
  "echo ${x@P}",
  "echo ${!x}",
  'declare a="$x"',
];

/** The allowlist those lines run under. */
// biome-ignore format: a word list reads better packed
const ALLOWED = ["npm", "git", "cat", "ls", "xargs", "find", "read", "export", "unset", "mapfile", "set", "shopt", "env", "timeout"];

describe("refusal reasons worded by the page", () => {
  it("words each policy refusal of the real tool as the host does", async () => {
    for (const command of POLICY_LINES) {
      const { details } = await runTool(
        { workspaceRoot: fixture.workspaceRoot, allowedBinaries: ALLOWED },
        { command },
      );
      expectWorded(details);
    }
  });

  // All but "transform": the grammar reads only the operators bash knows, and all but @P are safe.
  it("words the expansion rules' refusals, with what to write instead", async () => {
    const contexts = new Set<string>();
    for (const command of EVALUATION_LINES) {
      const { details } = await runTool(
        { workspaceRoot: fixture.workspaceRoot, allowedBinaries: ["echo", "declare"] },
        { command },
      );
      expectWorded(details);
      const say = details.reasonSay;
      if (say?.id !== "policy") continue;
      for (const problem of say.problems)
        if (problem.id === "construct" && problem.refusal)
          contexts.add(
            problem.refusal.id === "arithmetic"
              ? `arithmetic:${problem.refusal.context}`
              : problem.refusal.id,
          );
    }
    expect([...contexts].sort()).toEqual(
      [
        "arithmetic:arithmetic_expansion",
        "arithmetic:binary_expression",
        "arithmetic:c_style_for_statement",
        "arithmetic:compound_statement",
        "arithmetic:expansion",
        "arithmetic:subscript",
        "array-element",
        "indirection",
        "name-subscript",
        "prompt-transform",
        "rereads",
      ].sort(),
    );
  });

  it("words every refusal of the policy's corpora that it gives a kind as the host does", async () => {
    const cases: [string[], string][] = [
      ...Object.values(REFUSED_UNDER_NARROW).flatMap((lines) =>
        lines.map((line) => [NARROW, line] as [string[], string]),
      ),
      ...REFUSED_UNDER_BROAD.map((line) => [BROAD, line] as [string[], string]),
      ...Object.values(EVALUATES_AS_CODE).flatMap(({ lines }) =>
        lines.map((line) => [EVALUATION_ALLOWED, line] as [string[], string]),
      ),
      ...ARGUMENT_CASES.map(({ allow, line }) => [allow, line] as [string[], string]),
    ];
    let worded = 0;
    for (const [allowedBinaries, line] of cases) {
      const verdict = checkAllowlist(await parseCommandLine(line), {
        allowedBinaries,
        workspaceRoot: fixture.workspaceRoot,
        pathEnv: fixture.systemBin,
      });
      expect(verdict.allowed, line).toBe(false);
      if (verdict.allowed || !verdict.say) continue;
      expect(refusalTextEn(verdict.say), line).toBe(verdict.reason);
      expect(refusalTextZh(verdict.say), line).not.toBe("");
      worded += 1;
    }
    // Most of them: what is left are parse errors, wrappers the policy cannot read and a few rules in code.
    expect(worded / cases.length).toBeGreaterThan(0.9);
  });

  it("words where PATH leads: not found, inside the workspace, a relative entry", async () => {
    fixture.executable(join(fixture.workspaceRoot, "bin", "npm"));
    const lines: [string, string][] = [
      ["ls x", fixture.systemBin.replace(/system-bin$/, "none")],
      ["npm test", join(fixture.workspaceRoot, "bin")],
      ["cd sub && git status", `bin:${fixture.systemBin}`],
    ];
    for (const [line, pathEnv] of lines) {
      const verdict = checkAllowlist(await parseCommandLine(line), {
        allowedBinaries: ["ls", "npm", "git", "cd"],
        workspaceRoot: fixture.workspaceRoot,
        pathEnv,
      });
      expect(verdict.allowed).toBe(false);
      if (verdict.allowed) continue;
      expectWorded({
        status: "refused",
        reason: verdict.reason,
        reasonSay: verdict.say,
      } as RunCommandDetails);
    }
  });

  it("leaves a policy refusal unworded when one of its parts has no kind, so the page shows the host's", async () => {
    const { details } = await runTool(
      { workspaceRoot: fixture.workspaceRoot, allowedBinaries: ["git", "cat"] },
      { command: "git --bogus log; curl x" },
    );
    expect(details.status).toBe("refused");
    // Both parts are in the host's sentence; a half-worded one would drop git's.
    expect(details.reason).toContain("git's option --bogus");
    expect(details.reason).toContain('"curl" is not on the allowlist');
    expect(details.reasonSay).toBeUndefined();
  });

  it("words the empty command, a bad timeout, the missing sandbox and the background refusals", async () => {
    const workspaceRoot = makeWorkspace();
    expectWorded((await runTool({ workspaceRoot }, { command: "  " })).details);
    for (const timeout of [0, -5, "ten", Number.NaN])
      expectWorded((await runTool({ workspaceRoot }, { command: "ls", timeout })).details);
    const noBwrap = await runTool(
      { workspaceRoot, sandbox: { enabled: true }, sandboxSearchPath: makeWorkspace() },
      { command: "ls" },
    );
    expectWorded(noBwrap.details);
    const asked = { command: "sleep 30", background: true } as { command: string };
    expectWorded((await runTool({ workspaceRoot }, asked)).details);
    const first = await runTool({ workspaceRoot, background: { commands, readinessMs: 100 } }, asked);
    expect(first.details.background).toBe(true);
    expectWorded(
      (await runTool({ workspaceRoot, background: { commands, readinessMs: 100 } }, asked)).details,
    );
  });

  it("words the other platforms' missing sandbox", () => {
    for (const platform of ["win32", "freebsd", "darwin"] as const) {
      const sandbox = createSandbox({ platform });
      const reason = sandbox.unavailable();
      // On this Linux machine there is no sandbox-exec, so macOS is refused too.
      expect(reason).toBeDefined();
      expectWorded({ status: "refused", reason, reasonSay: sandbox.unavailableSay() } as RunCommandDetails);
    }
  });

  it.runIf(process.platform === "linux")(
    "words the network refusals: hosts asked, listed or granted that are not valid, too many asked, no forwarder",
    async () => {
      const workspaceRoot = makeWorkspace();
      const sandbox = { enabled: true, allowedHosts: ["registry.test"] };
      const ask = (network: string[]) => ({ command: "ls", network }) as { command: string };
      // One entry of each kind the host words.
      const bad = ["", "a b", "x%41.test", "http://x.test/", "10.0.0.1", "x.test:99999", "x.test."];
      bad.push("a*.test", "-x-.test", "*.com");
      const asked = await runTool({ workspaceRoot, sandbox }, ask(bad));
      expectWorded(asked.details);
      const kinds = asked.details.reasonSay?.id === "hosts-invalid" ? asked.details.reasonSay.problems : [];
      expect(kinds.map((problem) => problem.id)).toEqual([
        "empty",
        "characters",
        "percent",
        "url",
        "address",
        "port",
        "trailing-dot",
        "wildcard",
        "name",
        "public-suffix",
      ]);
      const many = Array.from({ length: 21 }, (_, i) => `h${i}.test`);
      expectWorded((await runTool({ workspaceRoot, sandbox }, ask(many))).details);
      const listed = { enabled: true, allowedHosts: ["*.com"] };
      expectWorded((await runTool({ workspaceRoot, sandbox: listed }, { command: "ls" })).details);
      const granted = await runTool(
        {
          workspaceRoot,
          sandbox,
          approve: async () => ({ kind: "approve", network: { mode: "hosts", grantedHosts: ["*"] } }),
        },
        { command: "ls" },
      );
      expectWorded(granted.details);
      const ran = await createSandbox({ forwarderNode: "/nonexistent/node" }).run(
        {
          argv: ["/bin/sh", "-c", "true"],
          cwd: workspaceRoot,
          env: { PATH: "/usr/bin:/bin", HOME: workspaceRoot },
          timeoutMs: 15_000,
          outputDir: `${workspaceRoot}-output`,
        },
        { kind: "hosts", hosts: [] },
      );
      expect("failure" in ran).toBe(true);
      if ("failure" in ran)
        expectWorded({ status: "refused", reason: ran.failure, reasonSay: ran.say } as RunCommandDetails);
    },
  );

  // All but "redirect-open": the only redirection it names, `<>`, does not parse, so the policy refuses the
  // line as unreadable before it gets there.
  it("has a Chinese wording for every row of the argument table the policy uses", () => {
    for (const entry of ARGUMENT_TABLE.filter((row) => !row.rulesOnly)) {
      const say: RefusalText = {
        id: "policy",
        problems: [{ id: "argument", name: entry.programs[0] as string, argument: "-x", does: entry.does }],
        allowed: ["x"],
      };
      expect(refusalTextZh(say), entry.does).not.toBe("");
    }
  });

  it("met every kind of refusal and policy part", () => {
    const ids = new Set(seen.map(({ say }) => say.id));
    expect([...ids].sort()).toEqual(
      [
        "asked-hosts-too-many",
        "background-full",
        "background-unavailable",
        "empty-command",
        "forwarder-failed",
        "hosts-invalid",
        "invalid-timeout",
        "no-bubblewrap",
        "no-sandbox",
        "no-sandbox-exec",
        "policy",
      ].sort(),
    );
    const parts = new Set(
      seen.flatMap(({ say }) => (say.id === "policy" ? say.problems.map((p) => p.id) : [])),
    );
    expect([...parts].sort()).toEqual(
      [
        "argument",
        "callback",
        "construct",
        "declares-variable",
        "dynamic-name",
        "dynamic-value",
        "empty-name",
        "environment-variable",
        "in-workspace",
        "names-element",
        "not-allowed",
        "not-found",
        "path-name",
        "redirect-dynamic-read",
        "redirect-network",
        "redirect-write",
        "relative-entry",
        "sets-variable",
        "shell-option",
        "shell-variable",
        "unchecked",
        "unreadable-argument",
        "wrapper-argument",
        "wrapper-option",
        "wrapper-refused",
      ].sort(),
    );
  });
});
