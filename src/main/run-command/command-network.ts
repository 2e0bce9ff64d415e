import type { RefusalText } from "../../shared/host-text";
import type { NetworkChoice, NetworkMode } from "../../shared/network";
import type { RunCommandResult } from "./command-result";
import type { HostDecisionEvent } from "./sandbox/network/host-gate";
import type { HostLedger } from "./sandbox/network/host-ledger";
import { checkAllowedHosts } from "./sandbox/network/host-pattern";
import type { NetworkPolicy } from "./sandbox/network/network-policy";
import type { SandboxSettings } from "./sandbox/sandbox";

/** Why a command's network cannot be offered or chosen: the model's sentence and its kind for the page. */
export interface NetworkRefusal {
  /** The English sentence (the model's text and the card's fallback). */
  refusal: string;
  /** The same as a kind and its parameters. */
  say: RefusalText;
}

/** The most hosts the agent may ask for in one call. */
export const MAX_ASKED_HOSTS = 20;

/** What the person is offered for one command's network (the pending card's choice). */
export interface NetworkOffer {
  /**
   * What it runs with unless the person picks another: "hosts" when the workspace lists any, else "off";
   * "full" when the workspace has the network on, or the command is not sandboxed at all.
   */
  mode: NetworkMode;
  /** The workspace's allowed hosts, as written in its settings. */
  allowedHosts: string[];
  /** Hosts the agent asked for with `network`; granted only if the person grants them. */
  askedHosts: string[];
  /** Whether host rules can apply: the command is sandboxed, by bubblewrap. Where not, "hosts" is never the default. */
  hostRules: boolean;
}

/**
 * The offer for a command, from the workspace's sandbox settings and the hosts the agent asked for; a refusal
 * (for the model) when what it asked is not a valid host entry.
 */
export function offerNetwork(
  settings: SandboxSettings | undefined,
  asked: readonly string[] | undefined,
  hostRules: boolean,
): { offer: NetworkOffer } | NetworkRefusal {
  const askedHosts = [...(asked ?? [])];
  if (askedHosts.length > MAX_ASKED_HOSTS) {
    return {
      refusal: `network lists ${askedHosts.length} hosts; ask for at most ${MAX_ASKED_HOSTS}.`,
      say: { id: "asked-hosts-too-many", count: askedHosts.length, max: MAX_ASKED_HOSTS },
    };
  }
  const bad = checkAllowedHosts(askedHosts);
  if (bad.errors.length > 0) {
    return {
      refusal: `The hosts asked for in network are not valid: ${bad.errors.join(" ")}`,
      say: { id: "hosts-invalid", whose: "asked", problems: bad.problems },
    };
  }
  const allowedHosts = [...(settings?.allowedHosts ?? [])];
  // Outside the sandbox a command has the whole network, whatever the settings say: the card says so.
  const mode: NetworkMode =
    settings?.enabled !== true || settings.network === true
      ? "full"
      : hostRules && allowedHosts.length > 0
        ? "hosts"
        : "off";
  return { offer: { mode, allowedHosts, askedHosts, hostRules } };
}

/**
 * The policy a command runs with: the person's choice when they made one (`true` is today's "use the
 * network" checkbox: the full network), else the offer's mode. Only the person widens it; the agent's asked
 * hosts count only when the person grants them. A refusal when a list of hosts is not valid.
 */
export function chooseNetwork(
  offer: NetworkOffer,
  choice: boolean | NetworkChoice | undefined,
  extras: Pick<SandboxSettings, "resolveHost" | "allowLoopbackTargets"> & {
    onDecision?: (event: HostDecisionEvent) => void;
  },
): { policy: NetworkPolicy } | NetworkRefusal {
  let mode = offer.mode;
  let granted: string[] = [];
  // Only `true` or a well-formed choice counts: a decision that says nothing keeps the offer.
  if (choice === true) mode = "full";
  else if (typeof choice === "object" && choice !== null && isMode(choice.mode)) {
    mode = choice.mode;
    granted = Array.isArray(choice.grantedHosts)
      ? choice.grantedHosts.filter((h) => typeof h === "string")
      : [];
  }
  if (mode === "off") return { policy: { kind: "none" } };
  if (mode === "full") return { policy: { kind: "full" } };
  const workspace = checkAllowedHosts(offer.allowedHosts);
  if (workspace.errors.length > 0) {
    return {
      refusal: `The workspace's allowed hosts are not valid, so the command did not run: ${workspace.errors.join(" ")} Fix them in Settings.`,
      say: { id: "hosts-invalid", whose: "workspace", problems: workspace.problems },
    };
  }
  const extra = checkAllowedHosts(granted);
  if (extra.errors.length > 0) {
    return {
      refusal: `The hosts granted for this command are not valid: ${extra.errors.join(" ")}`,
      say: { id: "hosts-invalid", whose: "granted", problems: extra.problems },
    };
  }
  return {
    policy: {
      kind: "hosts",
      hosts: [...workspace.patterns, ...extra.patterns],
      resolveHost: extras.resolveHost,
      allowLoopbackTargets: extras.allowLoopbackTargets === true,
      onDecision: extras.onDecision,
    },
  };
}

function isMode(value: unknown): value is NetworkMode {
  return value === "off" || value === "hosts" || value === "full";
}

/** The hosts a command reached and was refused, on its record; the model's text ends with the refused ones. */
export function withHosts(ledger: HostLedger, result: RunCommandResult): RunCommandResult {
  const hosts = ledger.list();
  if (hosts.length === 0) return result;
  const line = ledger.refusedLine();
  const content = line ? [...result.content, { type: "text" as const, text: `\n\n${line}` }] : result.content;
  return { ...result, content, details: { ...result.details, hosts } };
}
