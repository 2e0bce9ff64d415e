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
  const change = useAction();
  const own = resources.fromWorkspace;
  const total = resources.backgroundTotal;
  const [draft, setDraft] = useState<Draft>({
    memoryBytes: ownValue(own.memoryBytes, resources.memoryBytes / MiB),
    processes: ownValue(own.processes, resources.processes),
    backgroundMemoryBytes: ownValue(own.backgroundMemoryBytes, (total?.memoryBytes ?? 0) / MiB),
    backgroundProcesses: ownValue(own.backgroundProcesses, total?.processes ?? 0),
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const held = resources.layer !== "none";

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const checked = checkDraft(draft, t);
    setProblem(checked.problem ?? null);
    if (checked.problem) return;
    if (await change.run(() => api.setResourceLimits(checked.limits), t.resources.failed)) setSaved(true);
  };
  const field = (key: keyof Draft, label: string, fallback: number, mebibytes: boolean, testId: string) => (
    <LimitField
      label={label}
      value={draft[key]}
      placeholder={String(mebibytes ? fallback / MiB : fallback)}
      hint={t.resources.defaultHint(
        mebibytes ? formatLimitBytes(fallback) : fallback.toLocaleString("en-US"),
      )}
      onChange={(value) => setDraft({ ...draft, [key]: value })}
      testId={testId}
    />
  );

  return (
    <div className="resource-limits" data-testid="resource-limits">
      <p className={held ? "muted" : "error"} data-testid="limits-layer" data-layer={resources.layer}>
        {resources.layer === "none"
          ? t.resources.layer.none(
              resources.notLimited
                ? t.resources.notLimited[resources.notLimited]
                : resources.description.replace(/^not limited: /, ""),
            )
          : t.resources.layer[resources.layer]}
      </p>
      <p className="muted" data-testid="limits-cpu">
        {resources.cpuWeight === null ? t.resources.cpuNone : t.resources.cpuWeight(resources.cpuWeight)}
      </p>
      {total && (
        <p className="muted" data-testid="limits-background-total">
          {t.resources.backgroundTotal(
            formatLimitBytes(total.memoryBytes),
            total.processes.toLocaleString("en-US"),
          )}
        </p>
      )}
      {held && (
        <form onSubmit={(e) => void save(e)}>
          {field("memoryBytes", t.resources.memory, resources.defaults.memoryBytes, true, "limits-memory")}
          {field("processes", t.resources.processes, resources.defaults.processes, false, "limits-processes")}
          {total && (
            <>
              {field(
                "backgroundMemoryBytes",
                t.resources.backgroundMemory,
                own.backgroundMemoryBytes ? resources.defaults.memoryBytes : total.memoryBytes,
                true,
                "limits-background-memory",
              )}
              {field(
                "backgroundProcesses",
                t.resources.backgroundProcesses,
                own.backgroundProcesses ? 2 * resources.defaults.processes : total.processes,
                false,
                "limits-background-processes",
              )}
            </>
          )}
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

/** One limit: its label, the field (empty: the default), and the default said under it. */
function LimitField(props: {
  label: string;
  value: string;
  placeholder: string;
  hint: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        inputMode="numeric"
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
      <p className="muted">{props.hint}</p>
    </>
  );
}

/** The fields as typed: memory in MiB, processes as a count. */
interface Draft {
  memoryBytes: string;
  processes: string;
  backgroundMemoryBytes: string;
  backgroundProcesses: string;
}

type Limits = Partial<Record<keyof Draft, number>>;

/** A field's text at first: the workspace's own value, or empty where the default holds. */
function ownValue(own: boolean | undefined, value: number): string {
  return own ? String(value) : "";
}

/** The limits the fields ask for (empty: the default), or the problem with them, worded for the person. */
function checkDraft(draft: Draft, t: Messages): { limits: Limits; problem?: string } {
  const limits: Limits = {};
  for (const key of Object.keys(draft) as (keyof Draft)[]) {
    const value = wholeOrEmpty(draft[key]);
    if (value === null) return { limits, problem: t.resources.notWhole };
    if (value === undefined) continue;
    const memory = key === "memoryBytes" || key === "backgroundMemoryBytes";
    if (memory && value * MiB < MIN_RESOURCE_LIMITS.memoryBytes)
      return { limits, problem: t.resources.tooSmallMemory };
    if (!memory && value < MIN_RESOURCE_LIMITS.processes)
      return { limits, problem: t.resources.tooFewProcesses };
    limits[key] = memory ? value * MiB : value;
  }
  return { limits };
}

/** A whole number typed in a field; undefined when it is empty, null when it is not a whole number. */
function wholeOrEmpty(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}
