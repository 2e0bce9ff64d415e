/**
 * A stdio MCP server's environment: only what its configuration names, never the host's whole environment
 * (Pi's default lets a server inherit everything, API keys included). Besides the configured variables a
 * server gets the few a process needs to start and find its programs, the same list the official MCP SDK
 * passes by default (`getDefaultEnvironment` in `@modelcontextprotocol/sdk`): PATH to find `node` or `npx`,
 * HOME and USER for its own caches, the shell and terminal, and on Windows the system folders.
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** What a process needs to start, taken from the host's environment when set. */
const STARTING_VARIABLES =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
        "PROGRAMFILES",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL"];

/**
 * The server's environment: the starting variables, then its configured `env` with `${NAME}` (or `$NAME`)
 * taken from the host's environment. A variable the configuration names but the host lacks is an error that
 * says which (as Pi's own resolver refuses it).
 */
export function serverEnvironment(
  server: string,
  configured: Record<string, string> | undefined,
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of STARTING_VARIABLES) {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [key, value] of Object.entries(configured ?? {}))
    env[key] = resolveConfigValue(value, host, `MCP server "${server}" env "${key}"`);
  return env;
}

/** HTTP headers with `${NAME}` taken from the host's environment, as Pi resolves them. */
export function serverHeaders(
  server: string,
  headers: Record<string, string> | undefined,
  host: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([key, value]) => [
      key,
      resolveConfigValue(value, host, `MCP server "${server}" header "${key}"`),
    ]),
  );
}

/** `~` and `~/…` name the home directory, as Pi reads `command`, `args` and `cwd`. */
export function expandHome(value: string): string {
  if (value === "~") return homedir();
  return value.startsWith("~/") ? join(homedir(), value.slice(2)) : value;
}

/**
 * Pi's config value syntax (`${NAME}`, `$NAME`, `$$` for a dollar), written out here because Pi does not
 * export its resolver. A value that starts with `!` would run a shell command in Pi; Pi Desk refuses it
 * rather than run a program no one approved.
 */
function resolveConfigValue(value: string, host: NodeJS.ProcessEnv, what: string): string {
  if (value.startsWith("!"))
    throw new Error(
      `${what} runs a command ("${value}"), which Pi Desk does not do: put the value in a variable of Pi Desk's environment and write "\${NAME}" instead.`,
    );
  return value.replace(
    /\$(\$|!|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (_whole, next, braced, bare) => {
      if (next === "$" || next === "!") return next;
      const name = (braced ?? bare) as string;
      const found = host[name];
      if (found === undefined || found === "")
        throw new Error(
          `${what} names the variable ${name}, which is not set: set it where Pi Desk starts, or change mcp.json.`,
        );
      return found;
    },
  );
}
