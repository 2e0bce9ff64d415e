import { useId, useState } from "react";
import type { ApprovalDecision, CommandView } from "../../../../shared/commands";
import type { NetworkMode } from "../../../../shared/network";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { requireSaved } from "../../lib/hosts-saved";
import { useAction } from "../../lib/use-action";
import { useTestId } from "./card-scope";

/** What the person picked for a pending command's network, before approving. */
export interface NetworkDraft {
  /** The mode it is to run with. */
  mode: NetworkMode;
  /** Hosts the agent asked for that the person granted for this one command. */
  granted: string[];
}

/** Whether the card offers a network choice: only where the sandbox keeps commands off the network. */
export function offersNetwork(command: CommandView): boolean {
  return command.sandbox?.enabled === true && !command.sandbox.network;
}

/** The draft a card starts with: the host's default for the command, nothing granted. */
export function initialNetwork(command: CommandView): NetworkDraft {
  return { mode: offersNetwork(command) ? (command.network?.mode ?? "off") : "full", granted: [] };
}

/**
 * The decision's `network` for a draft, or undefined when it keeps the host's default: `true` for the full
 * network (as the older checkbox sent it), a choice otherwise.
 */
export function networkDecision(
  command: CommandView,
  draft: NetworkDraft,
): Extract<ApprovalDecision, { kind: "approve" }>["network"] {
  if (!offersNetwork(command)) return undefined;
  if (draft.mode === "full") return true;
  if (draft.mode === "hosts" && draft.granted.length > 0)
    return { mode: "hosts", grantedHosts: draft.granted };
  if (draft.mode === (command.network?.mode ?? "off")) return undefined;
  return { mode: draft.mode };
}

/**
 * A pending command's network: off, the workspace's allowed hosts (listed), or the full network (with its
 * warning); the hosts the agent asked for, to grant for this command or add to the workspace. Outside the
 * sandbox it only says that host rules need the sandbox.
 */
export function NetworkChoice({
  command,
  api,
  draft,
  onDraft,
}: {
  command: CommandView;
  api: ChatApi;
  draft: NetworkDraft;
  onDraft: (draft: NetworkDraft) => void;
}) {
  const t = useT();
  const tid = useTestId();
  const name = useId();
  const add = useAction();
  const [added, setAdded] = useState<string[]>([]);
  if (command.sandbox && !command.sandbox.enabled) {
    return (
      <p className="muted choice-note" data-testid={tid("network-no-sandbox")}>
        {t.network.noHostRules}
      </p>
    );
  }
  if (!offersNetwork(command)) return null;
  const offer = command.network;
  const hostRules = offer?.hostRules === true;
  const listed = [...(offer?.allowedHosts ?? []), ...draft.granted];
  // With no host listed or asked for, "allowed hosts" would allow none: the same as off, so not offered.
  const offersHosts = hostRules && (listed.length > 0 || (offer?.askedHosts.length ?? 0) > 0);
  const pick = (mode: NetworkMode) => onDraft({ ...draft, mode });
  const grant = (host: string) =>
    onDraft(
      draft.granted.includes(host)
        ? { ...draft, granted: draft.granted.filter((h) => h !== host) }
        : { mode: "hosts", granted: [...draft.granted, host] },
    );
  const addToWorkspace = async (host: string) => {
    // Added for the next commands, and granted for this one: the list this command runs with is fixed.
    if (!draft.granted.includes(host)) grant(host);
    if (await add.run(() => requireSaved(api.addAllowedHosts({ hosts: [host] }), t), t.network.addFailed))
      setAdded((now) => [...now, host]);
  };
  return (
    <fieldset className="network-choice" data-testid={tid("network-choice")}>
      <legend className="muted">{t.network.choiceLabel}</legend>
      <label className="choice">
        <input
          type="radio"
          name={name}
          checked={draft.mode === "off"}
          onChange={() => pick("off")}
          data-testid={tid("network-off")}
        />
        {t.network.off}
      </label>
      {offersHosts && (
        <label className="choice">
          <input
            type="radio"
            name={name}
            checked={draft.mode === "hosts"}
            onChange={() => pick("hosts")}
            data-testid={tid("network-hosts")}
          />
          {t.network.hosts(listed.length)}
        </label>
      )}
      {hostRules && listed.length > 0 && (
        <ul className="host-list" data-testid={tid("network-hosts-list")}>
          {listed.map((host) => (
            <li key={host}>
              <code>{host}</code>
            </li>
          ))}
        </ul>
      )}
      <label className="choice">
        <input
          type="radio"
          name={name}
          checked={draft.mode === "full"}
          onChange={() => pick("full")}
          data-testid={tid("allow-network")}
        />
        {t.network.full}
      </label>
      {/* The network this choice allows is the host's: say so while it is picked, before the person approves. */}
      {draft.mode === "full" && (
        <p className="muted choice-note" data-testid={tid("network-local-services")}>
          {t.network.fullWarning} {t.command.localServices}
        </p>
      )}
      {hostRules && (offer?.askedHosts.length ?? 0) > 0 && (
        <div className="asked-hosts" data-testid={tid("network-asked")}>
          <span className="muted">{t.network.asked}</span>
          <ul>
            {offer?.askedHosts.map((host) => (
              <li key={host} data-testid={tid("network-asked-host")} data-host={host}>
                <code>{host}</code>{" "}
                <button
                  type="button"
                  aria-pressed={draft.granted.includes(host)}
                  onClick={() => grant(host)}
                  data-testid={tid("network-grant")}
                >
                  {draft.granted.includes(host) ? t.network.granted : t.network.grant}
                </button>{" "}
                <button
                  type="button"
                  disabled={add.busy || added.includes(host)}
                  onClick={() => void addToWorkspace(host)}
                  data-testid={tid("network-add-workspace")}
                >
                  {added.includes(host) ? t.network.added : t.network.addToWorkspace}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {add.error && (
        <p className="error" role="alert">
          {add.error}
        </p>
      )}
    </fieldset>
  );
}
