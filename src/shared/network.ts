import type { HostEntryProblem } from "./host-text";

/** How much network one sandboxed command gets. */
export type NetworkMode =
  /** None: no route out at all. */
  | "off"
  /** Only the allowed hosts, by name, through Pi Desk's proxy. */
  | "hosts"
  /** The whole network, the machine's and the LAN's services included. */
  | "full";

/** The person's network choice for one command, in an approval decision. */
export interface NetworkChoice {
  /** The mode this command runs with. */
  mode: NetworkMode;
  /** Hosts granted for this one command besides the workspace's list (mode "hosts"); same syntax as `allowedHosts`. */
  grantedHosts?: string[];
}

/** Why the proxy refused a connection, for the page to word (the reason sentence is English). */
export type HostRefusal =
  /** The host is not among the allowed ones. */
  | "not-allowed"
  /** The host is allowed but its addresses are loopback, private or reserved (this machine, the LAN). */
  | "private-address"
  /** The command asked for an IP address; rules are by name. */
  | "by-address"
  /** The request could not be read, or named no valid host. */
  | "malformed"
  /** Too many connections open at once. */
  | "too-many"
  /** The host could not be resolved or reached. */
  | "unreachable"
  /** The command had ended. */
  | "ended";

/** What a command did with one host: its connections and bytes, allowed or refused. */
export interface HostTally {
  /** The host name as the command asked for it (an IP literal or "?" when it named none). */
  host: string;
  /** The port (0 when the request never said). */
  port: number;
  /** Whether the proxy let it through. */
  allowed: boolean;
  /** Connections: opened when allowed, attempts when refused. */
  count: number;
  /** Bytes sent to it. */
  bytesUp: number;
  /** Bytes received from it. */
  bytesDown: number;
  /** Why it was refused, the last time (refused only). */
  reason?: string;
  /** The kind of the last refusal (refused only). */
  refusal?: HostRefusal;
}

/** A set of hosts a person can add to a workspace's `allowedHosts` in one click (Settings). */
export interface HostPreset {
  /** Stable id, for the Settings control and tests. */
  id: "npm" | "pypi" | "github" | "crates" | "go";
  /** What it is for, as the person knows it. */
  label: string;
  /** The `allowedHosts` entries it adds. */
  hosts: readonly string[];
}

/** The presets: the package registries and code hosts commands most often need. Nothing is allowed by default. */
export const HOST_PRESETS: readonly HostPreset[] = [
  { id: "npm", label: "npm", hosts: ["registry.npmjs.org"] },
  { id: "pypi", label: "PyPI", hosts: ["pypi.org", "files.pythonhosted.org"] },
  { id: "github", label: "GitHub", hosts: ["github.com", "codeload.github.com", "*.githubusercontent.com"] },
  { id: "crates", label: "crates.io", hosts: ["crates.io", "static.crates.io", "index.crates.io"] },
  { id: "go", label: "Go", hosts: ["proxy.golang.org", "sum.golang.org"] },
];

/**
 * What saving the workspace's allowed hosts came to: saved, or refused whole (nothing changed) with each bad
 * entry's problem for the page to word and the host's English sentence for a page that does not know one.
 */
export type AllowedHostsSaved =
  | { saved: true }
  | {
      saved: false;
      /** One per refused entry. */
      problems: HostEntryProblem[];
      /** The same in the host's English, what to do included. */
      message: string;
    };
