import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, isAbsolute, join } from "node:path";

/**
 * Variables a command may inherit from the host, by name. Everything else in the host's environment
 * (API keys, tokens, ELECTRON_*, NODE_OPTIONS, the browser host's token) never reaches a command.
 */
const INHERITED = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "USER", "LOGNAME", "TMPDIR"];

/** Set on every command so that nothing waits for a person at a terminal that is not there. */
const NON_INTERACTIVE: Record<string, string> = {
  TERM: "dumb",
  PAGER: "cat",
  GIT_PAGER: "cat",
  MANPAGER: "cat",
  SYSTEMD_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
  GIT_EDITOR: "true",
  GCM_INTERACTIVE: "never",
  DEBIAN_FRONTEND: "noninteractive",
  PIP_NO_INPUT: "1",
};

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a command's environment is built from. */
export interface CommandEnvironmentOptions {
  /** The workspace; its per-workspace home is derived from it. */
  workspaceRoot: string;
  /** The command's HOME; a private per-workspace folder when absent, so dotfiles land neither in the person's home nor in the repository. */
  homeDir?: string;
  /** Extra variables the person chose to pass through; they win over everything else. */
  extra?: Record<string, string>;
  /** The host's environment to take the allowlisted variables from (process.env when absent). */
  hostEnv?: NodeJS.ProcessEnv;
}

/**
 * The complete environment of a command, built from an allowlist rather than by copying the host's.
 * PATH keeps only absolute entries: a relative one (".", "") would let a file in the workspace shadow an
 * allowed binary.
 */
export function buildCommandEnvironment(options: CommandEnvironmentOptions): Record<string, string> {
  const hostEnv = options.hostEnv ?? process.env;
  const env: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH = (env.PATH ?? "/usr/local/bin:/usr/bin:/bin")
    .split(delimiter)
    .filter((entry) => isAbsolute(entry))
    .join(delimiter);
  env.LANG ??= "C.UTF-8";
  env.HOME = options.homeDir ?? workspaceHome(options.workspaceRoot);
  env.SHELL = "/bin/bash";
  Object.assign(env, NON_INTERACTIVE);
  for (const [name, value] of Object.entries(options.extra ?? {})) {
    if (!VARIABLE_NAME.test(name)) {
      throw new Error(
        `The variable name "${name}" is not valid: use letters, digits and _, not starting with a digit.`,
      );
    }
    if (value.includes("\0"))
      throw new Error(`The value of ${name} contains a NUL byte, which no command can receive.`);
    env[name] = value;
  }
  return env;
}

/** A private home per workspace, so tools that write dotfiles or caches keep them apart and out of the repo. */
export function workspaceHome(workspaceRoot: string): string {
  const id = createHash("sha256").update(workspaceRoot).digest("hex").slice(0, 16);
  const home = join(tmpdir(), "pi-desk-homes", id);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return home;
}
