import { execFile } from "node:child_process";

/** What a git run printed, and how it ended. */
export interface GitRun {
  /** Its standard output (bytes as text unless asked for as a buffer). */
  stdout: string;
  /** Its standard error. */
  stderr: string;
  /** Its exit code. */
  code: number;
}

/** Options of one git run. */
export interface GitOptions {
  /** Variables over the host's (GIT_INDEX_FILE for a temporary index). */
  env?: Record<string, string>;
  /** What to write to its standard input. */
  input?: string | Buffer;
}

/**
 * Settings every git run of the host takes over the repository's: its own git runs on the person's click,
 * outside the sandbox, in folders an agent wrote in, so nothing a repository's config or hooks name runs
 * (no hook, no file-system monitor, no external diff); the person's hooks are theirs to run.
 */
const GUARDED = ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "diff.external="];

/** The most output one git run may print (a binary diff of a large change is big, but bounded). */
const MAX_BUFFER = 512 * 1024 * 1024;

/**
 * Runs git in `cwd` and resolves however it ends (the caller reads the code). English messages (`LC_ALL=C`)
 * because some answers are read from git's error text; no pager, no prompt for credentials, and the
 * person's global config still read (their identity, their `safe.directory`).
 */
export function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...GUARDED, ...args],
      {
        cwd,
        maxBuffer: MAX_BUFFER,
        env: {
          ...process.env,
          LC_ALL: "C",
          GIT_TERMINAL_PROMPT: "0",
          GIT_PAGER: "cat",
          GIT_OPTIONAL_LOCKS: "0",
          ...options.env,
        },
      },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? -1 : 0;
        if (error && code === -1) {
          reject(new Error(`git could not be run in ${cwd}: ${error.message}. Install git and try again.`));
          return;
        }
        resolve({ stdout: String(stdout), stderr: String(stderr), code });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** Runs git and returns its output, or throws with `what` failed and git's own words. */
export async function gitOk(
  cwd: string,
  args: readonly string[],
  what: string,
  options: GitOptions = {},
): Promise<string> {
  const run = await git(cwd, args, options);
  if (run.code !== 0) {
    const said = run.stderr.trim() || run.stdout.trim() || `exit code ${run.code}`;
    throw new Error(`${what} failed: git said "${said.slice(0, 600)}".`);
  }
  return run.stdout;
}
