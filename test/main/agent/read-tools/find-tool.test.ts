import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDeskFindTool } from "../../../../src/main/agent/read-tools/find-tool";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with these files (empty), outside any git repository. */
function folder(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "pi-desk-find-"));
  made.push(dir);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), "");
  }
  return dir;
}

function onPath(program: string): boolean {
  try {
    execFileSync("which", [program], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function find(cwd: string, pattern: string): Promise<string[]> {
  const result = await createDeskFindTool(cwd).execute(
    "find-1",
    { pattern },
    undefined,
    undefined,
    undefined as never,
  );
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return text.split("\n").filter(Boolean).sort();
}

describe("the agent's find tool", () => {
  // Whatever fd this machine has (none, one too old for Pi outside git, or a current one), the agent finds files.
  it("finds files by name at any depth in a folder that is not a git repository", async () => {
    const dir = folder(["a.ts", "src/b.ts", "src/c.js", "node_modules/x/d.ts"]);
    expect(await find(dir, "*.ts")).toEqual(["a.ts", "src/b.ts"]);
    expect(await find(dir, "src/*.js")).toEqual(["src/c.js"]);
    // Like fd, never past the folder searched, whatever the pattern.
    expect(await find(dir, "/etc/*")).toEqual(["No files found matching pattern"]);
  });

  // fd's own path, which the fallback must leave alone where fd works. Without fd the fallback ignores
  // .gitignore, so this case cannot pass on the glob: it needs fd (.ci/run installs Debian's fd-find).
  const fd = onPath("fd") || onPath("fdfind");
  const gitignoreCase = "leaves out what .gitignore ignores inside a git repository";
  if (fd) {
    it(gitignoreCase, async () => {
      const dir = folder(["kept.ts", "ignored.ts"]);
      execFileSync("git", ["init", "-q", dir]);
      writeFileSync(join(dir, ".gitignore"), "ignored.ts\n");
      expect(await find(dir, "*.ts")).toEqual(["kept.ts"]);
    });
  } else {
    console.warn(
      `find-tool.test.ts: skipping "${gitignoreCase}": neither fd nor fdfind is on PATH (install fd-find)`,
    );
    it.skip(`${gitignoreCase} (SKIPPED: neither fd nor fdfind is on PATH; install fd-find to run it)`, () => {});
  }
});
