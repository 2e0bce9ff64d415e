import { type FormEvent, useId, useState } from "react";
import { MIN_RESOURCE_LIMITS } from "../../../../shared/commands";
import type { ResourceLimitsState } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import type { Messages } from "../../i18n/en";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";
import { formatLimitBytes } from "../commands/LimitStopNote";

const MiB = 1024 ** 2;

/**
 * Each command's memory and process limits for the workspace, and the layer that holds them on this machine
 * (so the page never claims a limit that is not enforced): the layer, the CPU weight, the two limits the
 * person may change (empty: the host's default), and the workspace's total for background commands.
 */
export function ResourceLimitsSettings({ resources, api }: { resources: ResourceLimitsState; api: ChatApi }) {
  const t = useT();
  const memoryId = useId();
  const processesId = useId();
  const change = useAction();
  const [memory, setMemory] = useState(
    ownValue(resources.fromWorkspace.memoryBytes, resources.memoryBytes / MiB),
  );
  const [processes, setProcesses] = useState(
    ownValue(resources.fromWorkspace.processes, resources.processes),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const held = resources.layer !== "none";

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const checked = checkDraft(memory, processes, t);
    setProblem(checked.problem ?? null);
    if (checked.problem) return;
    if (await change.run(() => api.setResourceLimits(checked.limits), t.resources.failed)) setSaved(true);
  };

  return (
    <div className="resource-limits" data-testid="resource-limits">
      <p className={held ? "muted" : "error"} data-testid="limits-layer" data-layer={resources.layer}>
        {resources.layer === "none"
          ? t.resources.layer.none(resources.description.replace(/^not limited: /, ""))
          : t.resources.layer[resources.layer]}
      </p>
      <p className="muted" data-testid="limits-cpu">
        {resources.cpuWeight === null ? t.resources.cpuNone : t.resources.cpuWeight(resources.cpuWeight)}
      </p>
      {resources.backgroundTotal && (
        <p className="muted" data-testid="limits-background-total">
          {t.resources.backgroundTotal(
            formatLimitBytes(resources.backgroundTotal.memoryBytes),
            resources.backgroundTotal.processes.toLocaleString("en-US"),
          )}
        </p>
      )}
      {held && (
        <form onSubmit={(e) => void save(e)}>
          <label htmlFor={memoryId}>{t.resources.memory}</label>
          <input
            id={memoryId}
            inputMode="numeric"
            value={memory}
            placeholder={String(resources.defaults.memoryBytes / MiB)}
            onChange={(e) => setMemory(e.target.value)}
            data-testid="limits-memory"
          />
          <p className="muted">{t.resources.defaultHint(formatLimitBytes(resources.defaults.memoryBytes))}</p>
          <label htmlFor={processesId}>{t.resources.processes}</label>
          <input
            id={processesId}
            inputMode="numeric"
            value={processes}
            placeholder={String(resources.defaults.processes)}
            onChange={(e) => setProcesses(e.target.value)}
            data-testid="limits-processes"
          />
          <p className="muted">
            {t.resources.defaultHint(resources.defaults.processes.toLocaleString("en-US"))}
          </p>
          <button type="submit" disabled={change.busy} data-testid="limits-save">
            {t.resources.save}
          </button>
        </form>
      )}
      {(problem ?? change.error) && (
        <p className="error" role="alert" data-testid="limits-error">
          {problem ?? change.error}
        </p>
      )}
      {saved && !change.error && (
        <p className="muted" role="status" data-testid="limits-saved">
          {t.resources.saved}
        </p>
      )}
    </div>
  );
}

/** A field's text at first: the workspace's own value, or empty where the default holds. */
function ownValue(own: boolean, value: number): string {
  return own ? String(value) : "";
}

/** The limits the fields ask for (empty: the default), or the problem with them, worded for the person. */
function checkDraft(
  memory: string,
  processes: string,
  t: Messages,
): { limits: { memoryBytes?: number; processes?: number }; problem?: string } {
  const limits: { memoryBytes?: number; processes?: number } = {};
  const mebibytes = wholeOrEmpty(memory);
  const count = wholeOrEmpty(processes);
  if (mebibytes === null || count === null) return { limits, problem: t.resources.notWhole };
  if (mebibytes !== undefined) {
    if (mebibytes * MiB < MIN_RESOURCE_LIMITS.memoryBytes)
      return { limits, problem: t.resources.tooSmallMemory };
    limits.memoryBytes = mebibytes * MiB;
  }
  if (count !== undefined) {
    if (count < MIN_RESOURCE_LIMITS.processes) return { limits, problem: t.resources.tooFewProcesses };
    limits.processes = count;
  }
  return { limits };
}

/** A whole number typed in a field; undefined when it is empty, null when it is not a whole number. */
function wholeOrEmpty(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}
