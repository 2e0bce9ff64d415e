import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A workspace and, outside it, a folder of stand-in binaries to put on PATH. */
export interface PolicyFixture {
  /** The temporary workspace root. */
  workspaceRoot: string;
  /** A folder outside the workspace holding an executable stand-in for each name given. */
  systemBin: string;
  /** Writes an executable file (a shell script, `exit 0` unless given), creating its folder. */
  executable(path: string, script?: string): string;
  /** Removes everything the fixture made. */
  cleanup(): void;
}

/** Builds a fixture with stand-ins for `names` in `systemBin`. */
export function createPolicyFixture(names: readonly string[]): PolicyFixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "pi-desk-policy-")));
  const workspaceRoot = join(base, "workspace");
  const systemBin = join(base, "system-bin");
  mkdirSync(workspaceRoot, { recursive: true });
  const executable = (path: string, script = "exit 0\n") => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, `#!/bin/sh\n${script}`);
    chmodSync(path, 0o755);
    return path;
  };
  for (const name of names) executable(join(systemBin, name));
  return {
    workspaceRoot,
    systemBin,
    executable,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Every binary name the corpora use, so a refusal is never just "not found on PATH". */
export const STAND_IN_BINARIES = [
  ...["npm", "git", "echo", "cat", "ls", "grep", "head", "wc", "find", "sed", "awk", "rg", "tar", "rm", "id"],
  ...[
    "timeout",
    "env",
    "nice",
    "nohup",
    "time",
    "xargs",
    "sh",
    "bash",
    "sudo",
    "doas",
    "npx",
    "stdbuf",
    "true",
  ],
  ...["setsid", "ionice", "pnpm", "yarn", "fd", "sort", "rsync", "ssh", "man", "printf", "test"],
];
