import { afterAll, describe, expect, it } from "vitest";
import { checkAllowlist } from "../../../../src/main/run-command/policy/command-policy";
import { parseCommandLine } from "../../../../src/main/run-command/shell/shell-parser";
import {
  ALLOWED,
  ALLOWED_LIST,
  BROAD,
  NARROW,
  REFUSED_UNDER_BROAD,
  REFUSED_UNDER_NARROW,
} from "./fixtures/bypass-corpus";
import { EVALUATES_AS_CODE, EVALUATION_ALLOWED } from "./fixtures/evaluation-corpus";
import { createPolicyFixture, STAND_IN_BINARIES } from "./policy-fixture";

// Every name the corpus uses exists as an executable outside the workspace, so each refusal below is
// the policy's doing, not a lookup that happened to fail.
const fixture = createPolicyFixture(STAND_IN_BINARIES);
afterAll(() => fixture.cleanup());

async function verdict(command: string, allowedBinaries: readonly string[]) {
  const parsed = await parseCommandLine(command);
  return checkAllowlist(parsed, {
    allowedBinaries,
    workspaceRoot: fixture.workspaceRoot,
    pathEnv: fixture.systemBin,
  });
}

describe("command policy: bypass corpus", () => {
  const narrowCases = Object.entries(REFUSED_UNDER_NARROW).flatMap(([group, cases]) =>
    cases.map((command) => [group, command] as const),
  );

  it.each(narrowCases)("refuses (%s) %j under npm, git, echo", async (_group, command) => {
    const result = await verdict(command, NARROW);
    expect(result.allowed, JSON.stringify(result)).toBe(false);
    if (!result.allowed) {
      expect(result.reason).toMatch(/^Refused by the command policy: /);
      expect(result.reason).toContain("(allowed: npm, git, echo)");
      expect(result.refused.length).toBeGreaterThan(0);
    }
  });

  it.each(REFUSED_UNDER_BROAD)("refuses %j even with the wrapper or builtin allowed", async (command) => {
    const result = await verdict(command, BROAD);
    expect(result.allowed, JSON.stringify(result)).toBe(false);
  });

  const evaluationCases = Object.entries(EVALUATES_AS_CODE).flatMap(([group, { reason, lines }]) =>
    lines.map((command) => [group, command, reason] as const),
  );

  it.each(evaluationCases)("refuses (%s) %j, saying why", async (_group, command, reason) => {
    const result = await verdict(command, EVALUATION_ALLOWED);
    expect(result.allowed, JSON.stringify(result)).toBe(false);
    if (!result.allowed) expect(result.reason).toMatch(reason);
  });

  it.each(ALLOWED)("allows the harmless %j", async (command) => {
    const result = await verdict(command, ALLOWED_LIST);
    expect(result, JSON.stringify(result)).toEqual({ allowed: true });
  });

  it("has the corpus it claims", () => {
    expect(narrowCases.length + REFUSED_UNDER_BROAD.length).toBeGreaterThanOrEqual(80);
    expect(evaluationCases.length).toBeGreaterThanOrEqual(90);
    expect(ALLOWED.length).toBeGreaterThanOrEqual(30);
  });
});
