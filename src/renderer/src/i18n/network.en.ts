import type { HostEntryProblem } from "../../../shared/host-text";
import type { HostRefusal } from "../../../shared/network";
import { hostProblemEn } from "./refusals.en";

/** The English messages of network by name: the card's choice, the hosts seen, Settings' allowed hosts. */
export const networkEn = {
  choiceLabel: "Network for this command",
  off: "Off: no network",
  hosts: (count: number) =>
    count === 0 ? "Allowed hosts only (none listed yet)" : `Allowed hosts only (${count})`,
  full: "Let this command use the network",
  fullWarning: "The whole network: any host on the internet, and your LAN.",
  noHostRules:
    "Host rules need the sandbox (bubblewrap on Linux, Seatbelt on macOS): outside it this command has the whole network, as any program you run.",
  asked: "The agent asks for these hosts:",
  grant: "Allow for this command",
  granted: "Allowed for this command",
  addToWorkspace: "Add to the workspace",
  added: "Added to the workspace",
  addFailed: (reason: string) => `Not added to the workspace: ${reason}`,
  seenLabel: "Hosts",
  reached: "reached",
  refused: "refused",
  connections: (count: number) => (count === 1 ? "1 connection" : `${count.toLocaleString()} connections`),
  bytes: (up: string, down: string) => `${up} up, ${down} down`,
  allowForWorkspace: "Allow for this workspace",
  allowedForWorkspace: "Allowed for this workspace from the next command",
  refusal: {
    "not-allowed": "not in the allowed hosts",
    "private-address": "resolves to this machine or the LAN",
    "by-address": "an IP address: hosts are allowed by name",
    malformed: "an unreadable request",
    "too-many": "too many connections at once",
    unreachable: "could not be reached",
    ended: "the command had ended",
  } satisfies Record<HostRefusal, string>,
  settingsTitle: "Allowed hosts",
  settingsHint:
    "Sandboxed commands may reach these hosts by name, through Pi Desk's proxy, and no others. An exact name (registry.npmjs.org) or subdomains (*.githubusercontent.com), optionally with :port. An allowed host can still receive your data: allowing github.com allows pushing to any repository there.",
  settingsNeedsSandbox:
    "Host rules need the sandbox (bubblewrap on Linux, Seatbelt on macOS); with the sandbox off, commands have the whole network.",
  notSaved: (reason: string) => `Not saved: ${reason}`,
  /** Each refused entry's sentence and what to do; empty when one is of a kind this page does not know. */
  entryProblems: (problems: readonly HostEntryProblem[]) => {
    const sentences = problems.map(hostProblemEn);
    if (sentences.includes("")) return "";
    const which = problems.length === 1 ? "that entry" : "those entries";
    return `${sentences.join(" ")} Correct or remove ${which} and try again.`;
  },
  settingsNone: "None: sandboxed commands have no network unless you allow it for one.",
  addPlaceholder: "registry.npmjs.org",
  addLabel: "Host to allow",
  add: "Add",
  remove: (host: string) => `Remove ${host}`,
  presets: "Add a preset:",
};
