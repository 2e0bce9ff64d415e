/**
 * Which MCP servers a chat connects: the person's own `mcp.json` in Pi's agent folder always, the
 * workspace's `.pi/mcp.json` only where the person trusts the project in Pi (`pi`'s trust store), as the
 * `pi` command line reads them. A repository must not start programs just by being opened, so a project
 * file that is skipped is said, not silent.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadedMcpConfig, McpServerConfig, McpServerEntry } from "@earendil-works/pi-coding-agent";
import { isMcpServerOverride, mcpNamespace, validateMcpServerConfig } from "@earendil-works/pi-mcp";

/** What a project entry may change of a user-level server of the same name (Pi's rule). */
const OVERRIDE_KEYS = ["enabled", "exposure", "toolExposure"];

/** The servers a chat connects, what was wrong in the files, and a project file left out. */
export interface DeskMcpConfig extends LoadedMcpConfig {
  /** The workspace's `.pi/mcp.json`, when it exists and was not read because the project is not trusted. */
  skippedProjectConfig?: string;
}

/** Whether the person trusts the workspace in Pi (see project-trust.ts). */
export { projectTrusted } from "../project-trust";

/**
 * Reads the servers. Pi's own loader is not exported by the SDK, so its rules are kept here with its own
 * validator (`validateMcpServerConfig`): a project entry replaces a user-level one of the same name, an
 * entry with only `enabled`/`exposure`/`toolExposure` overrides those, names differing only in `-`/`_`
 * clash, and a project file may not name `auth`.
 */
export function loadDeskMcpConfig(options: {
  agentDir: string;
  workspace: string;
  trusted: boolean;
  /** Servers the workspace's settings turn off. */
  off?: readonly string[];
  /** Codemode and tool_search are loaded: each server's configured exposure holds. */
  scripts?: boolean;
}): DeskMcpConfig {
  const servers = new Map<string, McpServerEntry>();
  const errors: string[] = [];
  readConfigFile(join(options.agentDir, "mcp.json"), "global", servers, errors);
  const projectFile = join(options.workspace, ".pi", "mcp.json");
  if (options.trusted) readConfigFile(projectFile, "project", servers, errors);
  const skipped = !options.trusted && existsSync(projectFile);
  return {
    servers: [...servers.values()].map(options.scripts ? (entry) => entry : deskExposure).map((entry) =>
      // Pi keeps the server (so turning it on in an open chat reconnects it); Pi Desk makes no transport.
      options.off?.includes(entry.name) ? { ...entry, offInWorkspace: true } : entry,
    ),
    errors,
    ...(options.trusted ? { projectConfig: projectFile } : {}),
    ...(skipped ? { skippedProjectConfig: projectFile } : {}),
  };
}

/**
 * Without scripts (the workspace's "Scripts and tool search" off, the default) every tool of a server is
 * declared to the model (`direct`) unless the person hid it: without codemode and tool_search a `codemode`
 * or `deferred` tool could not be called at all.
 */
function deskExposure(entry: McpServerEntry): McpServerEntry {
  const config = entry.config;
  const direct = (exposure: string | undefined) => (exposure === "hidden" ? "hidden" : "direct");
  const toolExposure = config.toolExposure
    ? Object.fromEntries(Object.entries(config.toolExposure).map(([tool, value]) => [tool, direct(value)]))
    : undefined;
  return {
    ...entry,
    config: {
      ...config,
      exposure: direct(config.exposure),
      ...(toolExposure ? { toolExposure } : {}),
    } as McpServerConfig,
  };
}

function readConfigFile(
  path: string,
  scope: "global" | "project",
  servers: Map<string, McpServerEntry>,
  errors: string[],
): void {
  if (!existsSync(path)) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    errors.push(`${path}: ${error instanceof Error ? error.message : String(error)}. Fix the JSON.`);
    return;
  }
  const list = isRecord(parsed) ? parsed.mcpServers : undefined;
  if (!isRecord(parsed) || (list !== undefined && !isRecord(list))) {
    errors.push(`${path}: expected an object with an "mcpServers" object.`);
    return;
  }
  for (const [name, value] of Object.entries(list ?? {})) {
    if (scope === "project" && isRecord(value) && isMcpServerOverride(value)) {
      const base = servers.get(name);
      const extra = Object.keys(value).filter((key) => !OVERRIDE_KEYS.includes(key));
      if (!base)
        errors.push(
          `${path}: server "${name}" needs "command" or "url", or a user-level server to override.`,
        );
      else if (extra.length > 0)
        errors.push(`${path}: server "${name}": an override can only set ${OVERRIDE_KEYS.join(", ")}.`);
      else {
        const config = validate(name, { ...base.config, ...value });
        if (typeof config === "string") errors.push(`${path}: ${config}`);
        else servers.set(name, { ...base, config, override: path });
      }
      continue;
    }
    const config = validate(name, value);
    if (typeof config === "string") {
      errors.push(`${path}: ${config}`);
      continue;
    }
    const clash = [...servers.keys()].find(
      (other) => other !== name && mcpNamespace(other) === mcpNamespace(name),
    );
    if (clash) {
      errors.push(`${path}: server "${name}" conflicts with "${clash}"; rename one of them.`);
      continue;
    }
    if (scope === "project" && "url" in config && (config as { auth?: unknown }).auth) {
      errors.push(`${path}: server "${name}": "auth" is only allowed in the user-level mcp.json.`);
      continue;
    }
    servers.set(name, { name, config, source: path, scope });
  }
}

/** One entry checked by pi-mcp's validator (the transport's fields); Pi Desk sets the exposure itself. */
function validate(name: string, raw: unknown): McpServerConfig | string {
  const result = validateMcpServerConfig(name, raw);
  return result.kind === "invalid" ? result.error : (result.config as McpServerConfig);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
