import { type ReactNode, useId } from "react";
import type { CommandLimits, HostState } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { dictionaries, type Language, useI18n } from "../../i18n/i18n";
import { formatBytes } from "../../lib/format";
import { SnapshotProgress } from "../changes/SnapshotProgress";
import { WatchLimitNote } from "../changes/WatchLimitNote";
import { McpServersSettings } from "../mcp/McpServersSettings";
import { ScriptsSetting } from "../mcp/ScriptsSetting";
import { ModelSetup } from "../models/ModelSetup";
import { AllowedHostsSettings } from "./AllowedHostsSettings";
import { BackgroundCapSetting } from "./BackgroundCapSetting";
import { NotificationSettings } from "./NotificationSettings";
import { ResourceLimitsSettings } from "./ResourceLimitsSettings";
import { RulesEditor } from "./RulesEditor";
import { SandboxSettings } from "./SandboxSettings";
import { WorktreeSettings } from "./WorktreeSettings";

/** Settings: the language, the rules, the limits the host enforces, models and keys, and the version. */
export function SettingsView({ host, api }: { host: HostState; api: ChatApi }) {
  const { t, language, setLanguage } = useI18n();
  const languageId = useId();
  return (
    <div className="settings" data-testid="settings-view">
      <h2>{t.settings.heading}</h2>
      <section className="settings-section">
        <h3>
          <label htmlFor={languageId}>{t.settings.language}</label>
        </h3>
        <select
          id={languageId}
          value={language}
          onChange={(e) => setLanguage(e.target.value as Language)}
          data-testid="language-select"
        >
          {(Object.keys(dictionaries) as Language[]).map((code) => (
            <option key={code} value={code} lang={code}>
              {t.settings.languageNames[code]}
            </option>
          ))}
        </select>
      </section>
      <section className="settings-section">
        <h3>{t.settings.rules}</h3>
        <RulesEditor rules={host.rules} problem={host.rulesProblem} api={api} />
      </section>
      <section className="settings-section">
        <h3>{t.mcp.servers.heading}</h3>
        <McpServersSettings mcp={host.session?.mcp} api={api} />
      </section>
      <section className="settings-section">
        <h3>{t.mcp.servers.scripts.heading}</h3>
        <ScriptsSetting scripts={host.session?.mcp?.scripts} api={api} />
      </section>
      <section className="settings-section">
        <h3>{t.settings.limits}</h3>
        {host.limits ? (
          <LimitsPanel limits={host.limits}>
            <BackgroundCapSetting capSeconds={host.limits.backgroundCapSeconds} api={api} />
          </LimitsPanel>
        ) : (
          <p className="muted">{t.settings.limitsNone}</p>
        )}
      </section>
      {host.limits?.resources && (
        <section className="settings-section">
          <h3>{t.resources.heading}</h3>
          <ResourceLimitsSettings key={host.workspace?.id} resources={host.limits.resources} api={api} />
        </section>
      )}
      {host.limits?.sandbox && (
        <section className="settings-section">
          <h3>{t.settings.sandbox}</h3>
          <SandboxSettings sandbox={host.limits.sandbox} api={api} />
          <AllowedHostsSettings sandbox={host.limits.sandbox} api={api} />
        </section>
      )}
      {host.workspace && (
        <section className="settings-section">
          <h3>{t.worktrees.settingsHeading}</h3>
          <WorktreeSettings key={host.workspace.id} api={api} />
        </section>
      )}
      <section className="settings-section">
        <h3>{t.settings.notifications}</h3>
        <NotificationSettings enabled={host.notifications} shell={host.shell} api={api} />
      </section>
      <section className="settings-section">
        <h3>{t.settings.models}</h3>
        <ModelSetup models={host.models} api={api} />
      </section>
      <section className="settings-section">
        <h3>{t.settings.about}</h3>
        <p className="muted">{t.settings.version(host.version, host.shell)}</p>
      </section>
    </div>
  );
}

/**
 * What every command runs under: the allowlist, the timeouts, the variables passed and the room for saved
 * outputs; `children` are more rows (a term and its value) the person can change.
 */
export function LimitsPanel({ limits, children }: { limits: CommandLimits; children?: ReactNode }) {
  const { t } = useI18n();
  return (
    <dl className="limits" data-testid="limits">
      <dt>{t.settings.allowlist}</dt>
      <dd>
        {limits.allowedBinaries.length === 0 ? (
          t.settings.unrestricted
        ) : (
          <ul className="chips">
            {limits.allowedBinaries.map((name) => (
              <li key={name}>
                <code className="chip">{name}</code>
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>{t.settings.defaultTimeout}</dt>
      <dd>{t.command.seconds(limits.defaultTimeoutSeconds)}</dd>
      <dt>{t.settings.maxTimeout}</dt>
      <dd>{t.command.seconds(limits.maxTimeoutSeconds)}</dd>
      <dt>{t.settings.environment}</dt>
      <dd>
        <ul className="chips">
          {limits.environment.map((name) => (
            <li key={name}>
              <code className="chip">{name}</code>
            </li>
          ))}
        </ul>
      </dd>
      <dt>{t.settings.savedOutputs}</dt>
      <dd data-testid="saved-outputs">
        {t.settings.savedOutputsUse(
          formatBytes(limits.savedOutputs.usedBytes),
          formatBytes(limits.savedOutputs.quotaBytes),
        )}
        <p className="muted">{t.settings.savedOutputsHint(formatBytes(limits.savedOutputs.budgetBytes))}</p>
      </dd>
      <dt>{t.settings.changes}</dt>
      <dd data-testid="changes-settings" data-state={limits.changes.state.type}>
        {limits.changes.state.type === "on"
          ? t.settings.changesOn(
              formatBytes(limits.changes.usageBytes),
              formatBytes(limits.changes.budgetBytes),
            )
          : limits.changes.state.type === "preparing"
            ? t.settings.changesPreparing
            : t.settings.changesOff(limits.changes.state.reason)}
        {limits.changes.state.type === "on" && limits.changes.copyBytes ? (
          <p className="muted" data-testid="changes-copy">
            {t.settings.changesCopy(
              formatBytes(limits.changes.copyBytes),
              formatBytes(limits.changes.budgetBytes - limits.changes.copyBytes),
            )}
          </p>
        ) : null}
        <SnapshotProgress changes={limits.changes} />
        <WatchLimitNote changes={limits.changes} />
        <p className="muted">{t.settings.changesHint(formatBytes(limits.changes.maxFileBytes))}</p>
        <ul className="chips" data-testid="changes-excludes">
          {limits.changes.excludes.map((pattern) => (
            <li key={pattern}>
              <code className="chip">{pattern}</code>
            </li>
          ))}
        </ul>
      </dd>
      {children}
    </dl>
  );
}
