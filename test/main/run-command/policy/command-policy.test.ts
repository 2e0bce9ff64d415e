// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${...} is bash, not a template
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type AllowlistOptions,
  checkAllowlist,
} from "../../../../src/main/run-command/policy/command-policy";
import { parseCommandLine } from "../../../../src/main/run-command/shell/shell-parser";
import { createPolicyFixture } from "./policy-fixture";

const fixture = createPolicyFixture(["npm", "git", "cat", "timeout"]);
afterAll(() => fixture.cleanup());

async function check(command: string, options: Partial<AllowlistOptions> = {}) {
  const parsed = await parseCommandLine(command);
  return checkAllowlist(parsed, {
    allowedBinaries: ["npm", "git"],
    workspaceRoot: fixture.workspaceRoot,
    pathEnv: fixture.systemBin,
    ...options,
  });
}

describe("checkAllowlist", () => {
  it("lets anything through when no allowlist is set, parse errors included", async () => {
    expect(await check("cat /etc/passwd > x; rm -rf ~", { allowedBinaries: [] })).toEqual({ allowed: true });
    const unrestricted = await check('echo "unterminated', { allowedBinaries: undefined });
    expect(unrestricted).toEqual({ allowed: true });
  });

  it("says what was refused, what is allowed and what to do", async () => {
    expect(await check("cat /etc/passwd")).toEqual({
      allowed: false,
      reason:
        'Refused by the command policy: "cat" is not on the allowlist (allowed: npm, git). Ask the user to run it, or use an allowed command.',
      say: { id: "policy", problems: [{ id: "not-allowed", name: "cat" }], allowed: ["npm", "git"] },
      refused: ["cat"],
    });
  });

  it("names every refused part once", async () => {
    const verdict = await check("cat a; npm test > out.txt; cat b; PATH=/tmp git log");
    expect(verdict.allowed).toBe(false);
    if (verdict.allowed) return;
    expect(verdict.refused).toEqual(["cat", "> out.txt", "PATH=/tmp"]);
    expect(verdict.reason.match(/"cat" is not on the allowlist/g)).toHaveLength(1);
    expect(verdict.reason).toContain('the redirection "> out.txt" writes to a file');
    expect(verdict.reason).toContain("setting PATH");
  });

  it("refuses issue 16's ${x@P}, saying what to write instead", async () => {
    const verdict = await check("x='$(touch M)'; echo ${x@P}", {
      allowedBinaries: ["echo", "ls", "git", "true"],
    });
    expect(verdict).toEqual({
      allowed: false,
      reason:
        'Refused by the command policy: "${x@P}" expands x as a prompt string, which runs any $(...) or backquote in its value; write "${x}" (or ${x@Q} to quote it) instead (allowed: echo, ls, git, true). Ask the user to run it, or use an allowed command.',
      say: {
        id: "policy",
        problems: [
          {
            id: "construct",
            text: "${x@P}",
            kind: "evaluation",
            refusal: { id: "prompt-transform", name: "x" },
          },
        ],
        allowed: ["echo", "ls", "git", "true"],
      },
      refused: ["${x@P}"],
    });
  });

  it("refuses a line it cannot parse, saying where", async () => {
    const verdict = await check('npm test "unterminated');
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain("does not parse as bash");
  });

  it("allows a line of allowed commands joined by lists and pipes", async () => {
    expect(await check("npm test && npm run lint || git status; git log | git shortlog")).toEqual({
      allowed: true,
    });
  });

  describe("where a name resolves", () => {
    it("allows a name that resolves outside the workspace", async () => {
      expect(await check("npm test")).toEqual({ allowed: true });
    });

    it("refuses a name shadowed by an executable in a workspace folder on PATH", async () => {
      fixture.executable(join(fixture.workspaceRoot, "bin", "npm"));
      const pathEnv = [join(fixture.workspaceRoot, "bin"), fixture.systemBin].join(delimiter);
      const verdict = await check("npm test", { pathEnv });
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) {
        expect(verdict.reason).toContain(
          `resolves to ${join(fixture.workspaceRoot, "bin", "npm")}, inside the workspace`,
        );
      }
    });

    it("refuses node_modules/.bin shadowing an allowed name", async () => {
      fixture.executable(join(fixture.workspaceRoot, "node_modules", ".bin", "git"));
      const pathEnv = [join(fixture.workspaceRoot, "node_modules", ".bin"), fixture.systemBin].join(
        delimiter,
      );
      expect((await check("git status", { pathEnv })).allowed).toBe(false);
    });

    it("refuses a relative PATH entry that leads into the workspace", async () => {
      fixture.executable(join(fixture.workspaceRoot, "tools", "npm"));
      expect((await check("npm test", { pathEnv: `tools${delimiter}${fixture.systemBin}` })).allowed).toBe(
        false,
      );
    });

    it("refuses a link outside the workspace that points into it", async () => {
      const target = fixture.executable(join(fixture.workspaceRoot, "evil-git"));
      const linkDir = join(fixture.systemBin, "..", "links");
      mkdirSync(linkDir, { recursive: true });
      symlinkSync(target, join(linkDir, "git"));
      expect((await check("git status", { pathEnv: linkDir })).allowed).toBe(false);
    });

    it("refuses a relative PATH entry when the line changes directory", async () => {
      const pathEnv = `.${delimiter}${fixture.systemBin}`;
      expect(await check("npm test", { pathEnv })).toEqual({ allowed: true });
      const verdict = await check("cd sub && npm test", { pathEnv, allowedBinaries: ["cd", "npm"] });
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) expect(verdict.reason).toContain('relative entry "."');
    });

    it("refuses a name found nowhere on PATH", async () => {
      const verdict = await check("npm test", { pathEnv: join(fixture.workspaceRoot, "..", "empty") });
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) expect(verdict.reason).toContain('"npm" is not found on PATH');
    });

    const realPath = (process.env.PATH ?? "").split(delimiter).filter((entry) => isAbsolute(entry));
    const realNpm = (() => {
      try {
        return execFileSync("sh", ["-c", "command -v npm"], {
          env: { PATH: realPath.join(delimiter) },
        }).toString();
      } catch {
        return "";
      }
    })();

    it.skipIf(!realNpm)("allows npm resolving to this machine's npm", async () => {
      expect(await check("npm --version", { pathEnv: realPath.join(delimiter) })).toEqual({ allowed: true });
    });
  });

  describe("builtins", () => {
    it("needs a builtin on the allowlist, but not on PATH", async () => {
      const empty = join(fixture.workspaceRoot, "..", "empty");
      expect(await check("echo hi", { allowedBinaries: ["echo"], pathEnv: empty })).toEqual({
        allowed: true,
      });
      const verdict = await check("cd src && npm test");
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) expect(verdict.refused).toEqual(["cd"]);
    });

    it("looks a builtin's name up on PATH when a wrapper runs it, as execvp would", async () => {
      const allowedBinaries = ["timeout", "echo"];
      const verdict = await check("timeout 5 echo hi", { allowedBinaries });
      expect(verdict.allowed).toBe(false);
      if (!verdict.allowed) expect(verdict.reason).toContain('"echo" is not found on PATH');
    });
  });

  it("checks the command inside a substitution instead of refusing the substitution", async () => {
    expect(
      await check("npm run $(git rev-parse --abbrev-ref HEAD)", { allowedBinaries: ["git", "echo"] }),
    ).toMatchObject({
      allowed: false,
      refused: ["npm"],
    });
    expect(await check("echo $(git rev-parse HEAD)", { allowedBinaries: ["git", "echo"] })).toEqual({
      allowed: true,
    });
  });
});
