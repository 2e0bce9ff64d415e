import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";

/** Files of a folder by relative path: text to write before a run. */
export type WorkspaceFiles = Record<string, string>;

/** What a line left behind in a fresh folder, run as run_command runs it. */
export interface BashRun {
  /** The folder it ran in (removed again; its path is still what the line's paths resolve against). */
  cwd: string;
  /** bash's exit status. */
  status: number | null;
  /** Every regular file in the folder afterwards, by relative path, as bytes. */
  files: Record<string, Buffer>;
}

/**
 * Runs a command line in real bash (absolute /bin/bash, as run_command starts it: `exec 2>&1` first) in a
 * fresh folder holding `before`, and returns every file it left there.
 */
export function filesAfterBash(line: string, before: WorkspaceFiles): BashRun {
  const cwd = mkdtempSync(join(tmpdir(), "shell-writes-"));
  try {
    for (const [path, content] of Object.entries(before)) {
      mkdirSync(dirname(join(cwd, path)), { recursive: true });
      writeFileSync(join(cwd, path), content);
    }
    const result = spawnSync("/bin/bash", ["-c", `exec 2>&1\n${line}`], {
      cwd,
      env: { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" },
      timeout: 5000,
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (result.error) throw result.error;
    return { cwd, status: result.status, files: filesIn(cwd, cwd) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function filesIn(root: string, folder: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) Object.assign(files, filesIn(root, path));
    else files[relative(root, path)] = readFileSync(path);
  }
  return files;
}
