import { type HostPattern, normalizeHostName } from "./host-pattern";

/**
 * Whether a command may reach `host:port` under the patterns: an exact name matches itself, `*.name` matches
 * names ending in `.name` (not `name`), and a pattern's port, when it has one, must be the port. Names are
 * compared case-insensitively with one trailing dot dropped; a host that is not a plain DNS name (an IP
 * literal, non-ASCII, too long) matches nothing.
 */
export function matchesHost(patterns: readonly HostPattern[], host: string, port: number): boolean {
  const name = normalizeHostName(host);
  if (!name) return false;
  return patterns.some((pattern) => {
    if (pattern.port !== undefined && pattern.port !== port) return false;
    return pattern.wildcard ? name.endsWith(`.${pattern.name}`) : name === pattern.name;
  });
}
