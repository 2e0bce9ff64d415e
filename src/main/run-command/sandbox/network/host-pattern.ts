import { isIP } from "node:net";
import { getPublicSuffix } from "tldts";
import type { HostEntryProblem } from "../../../../shared/host-text";

/** One entry of a workspace's `allowedHosts`, checked and normalised. */
export interface HostPattern {
  /** The name in lower case without a trailing dot; for a wildcard, the part after `*.`. */
  name: string;
  /** `*.name`: the subdomains of `name` only, not `name` itself. */
  wildcard: boolean;
  /** The one port allowed; absent allows every port. */
  port?: number;
  /** The entry as the person wrote it (for messages and the card). */
  text: string;
}

/** The longest host name DNS can carry (RFC 1035: 253 characters written out). */
export const MAX_HOST_NAME_LENGTH = 253;

/** A label: letters, digits and inner hyphens, at most 63 characters (RFC 1123). */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A host name as the proxy compares it: lower case, one trailing dot dropped (`github.com.` is `github.com`).
 * Undefined when it is not a plain ASCII DNS name (an IP literal, non-ASCII, `%`-escapes, empty labels, too
 * long): such a name never matches anything.
 */
export function normalizeHostName(raw: string): string | undefined {
  const name = raw.toLowerCase().replace(/\.$/, "");
  if (name.length === 0 || name.length > MAX_HOST_NAME_LENGTH) return undefined;
  if (isIP(name) !== 0 || isIP(name.replace(/^\[|\]$/g, "")) !== 0) return undefined;
  const labels = name.split(".");
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  // All-digit last label: an IPv4 address in another spelling (`127.1`, `0x7f.1`) that some resolvers accept.
  if (/^(0x[0-9a-f]*|[0-9]+)$/.test(labels[labels.length - 1] as string)) return undefined;
  return name;
}

/**
 * Reads one `allowedHosts` entry: `registry.npmjs.org`, `*.githubusercontent.com`, either with `:port`.
 * Refuses, with what to write instead: `*` and other bare wildcards, a wildcard on a public suffix (`*.com`,
 * `*.co.uk`: every site under it), IP literals (the rules are by name; an address is not checked against
 * DNS), non-ASCII or percent-encoded names (IDNs go in their `xn--` form), a trailing dot (`github.com.`
 * is `github.com`: write it once).
 */
export function parseHostPattern(
  entry: string,
): { pattern: HostPattern } | { error: string; problem: HostEntryProblem } {
  const text = entry.trim();
  const say = (why: string, problem: HostEntryProblem) => ({
    error: `"${text}" cannot be an allowed host: ${why}`,
    problem,
  });
  if (text === "")
    return {
      error: "An allowed host is empty: write a host name such as registry.npmjs.org.",
      problem: { id: "empty" },
    };
  if (/[^\x21-\x7e]/.test(text)) {
    return say("it has spaces or non-ASCII characters. Write an international name in its xn-- form.", {
      id: "characters",
      entry: text,
    });
  }
  if (text.includes("%"))
    return say("it is percent-encoded. Write the name itself.", { id: "percent", entry: text });
  if (text.includes("/") || text.includes("@")) {
    return say("write a host name only (registry.npmjs.org), not a URL.", { id: "url", entry: text });
  }
  const address = () =>
    say("it is an IP address. Rules are by host name: write the name the tool connects to.", {
      id: "address",
      entry: text,
    });
  let host = text;
  let port: number | undefined;
  if (isIP(text.replace(/^\[|\]$/g, "")) !== 0 || text.startsWith("[")) return address();
  const colon = text.lastIndexOf(":");
  if (colon !== -1) {
    host = text.slice(0, colon);
    const digits = text.slice(colon + 1);
    port = /^[0-9]{1,5}$/.test(digits) ? Number(digits) : Number.NaN;
    if (!(port >= 1 && port <= 65535))
      return say("the port must be a number from 1 to 65535.", { id: "port", entry: text });
  }
  if (host.endsWith(".")) {
    const name = host.slice(0, -1);
    return say(`drop the trailing dot: "${name}" already covers it.`, {
      id: "trailing-dot",
      entry: text,
      name,
    });
  }
  const wildcard = host.startsWith("*.");
  const rest = wildcard ? host.slice(2) : host;
  if (rest.includes("*") || host === "*") {
    return say("a wildcard is allowed only as a leading *. before a domain (*.githubusercontent.com).", {
      id: "wildcard",
      entry: text,
    });
  }
  if (isIP(rest) !== 0) return address();
  const name = normalizeHostName(rest);
  if (!name) {
    return say(
      `it is not a valid host name (letters, digits, hyphens and dots, at most ${MAX_HOST_NAME_LENGTH} characters).`,
      { id: "name", entry: text, maxLength: MAX_HOST_NAME_LENGTH },
    );
  }
  // ICANN suffixes only: `githubusercontent.com` is a private suffix, and a wildcard under it is the point.
  if (wildcard && getPublicSuffix(name) === name) {
    return say(`*.${name} would allow every site under the public suffix ${name}. Name the hosts instead.`, {
      id: "public-suffix",
      entry: text,
      suffix: name,
    });
  }
  return { pattern: { name, wildcard, ...(port !== undefined ? { port } : {}), text } };
}

/** The result of checking a whole `allowedHosts` list. */
export interface AllowedHostsCheck {
  /** The entries that are valid, duplicates dropped. */
  patterns: HostPattern[];
  /** One sentence per refused entry; the setting is refused when there is any. */
  errors: string[];
  /** The same as kinds and their parameters, for the page to word. */
  problems: HostEntryProblem[];
}

/** Checks a workspace's `allowedHosts` as a whole: every entry, and no entry written twice. */
export function checkAllowedHosts(entries: readonly string[]): AllowedHostsCheck {
  const patterns: HostPattern[] = [];
  const errors: string[] = [];
  const problems: HostEntryProblem[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const read = parseHostPattern(entry);
    if ("error" in read) {
      errors.push(read.error);
      problems.push(read.problem);
      continue;
    }
    const key = patternKey(read.pattern);
    if (seen.has(key)) continue;
    seen.add(key);
    patterns.push(read.pattern);
  }
  return { patterns, errors, problems };
}

/** The pattern written the canonical way: `*.name:port`. */
export function patternKey(pattern: HostPattern): string {
  return `${pattern.wildcard ? "*." : ""}${pattern.name}${pattern.port !== undefined ? `:${pattern.port}` : ""}`;
}
