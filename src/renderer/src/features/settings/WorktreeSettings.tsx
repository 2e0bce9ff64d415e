import { useEffect, useId, useState } from "react";
import type { WorktreeSettings as Chosen, WorktreeSettingsState } from "../../../../shared/worktrees";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { useAction } from "../../lib/use-action";

/**
 * The workspace's worktree chats: which new-chat choice comes first, where their folders go, the setup step
 * each new one runs first (asked for like any command), how many finished ones' clean worktrees stay and for
 * how long, and the worktrees cleanup left for the person to decide on, with why.
 */
export function WorktreeSettings({ api }: { api: ChatApi }) {
  const t = useT();
  const ids = { first: useId(), folder: useId(), setup: useId(), keep: useId(), days: useId() };
  const [state, setState] = useState<WorktreeSettingsState | null>(null);
  const [draft, setDraft] = useState<Chosen | null>(null);
  const save = useAction();
  const load = useAction();
  useEffect(() => {
    void load.run(async () => {
      const now = await api.worktreeSettings();
      setState(now);
      setDraft(now);
    }, t.worktrees.settingsFailed);
  }, [api, load.run, t]);
  if (!draft || !state) return load.error ? <p className="error">{load.error}</p> : null;
  const change = (patch: Partial<Chosen>) => setDraft({ ...draft, ...patch });
  const changed = (["folder", "setup", "keep", "olderThanDays", "first"] as const).some(
    (key) => (state[key] ?? "") !== (draft[key] ?? ""),
  );
  return (
    <form
      className="worktree-settings"
      data-testid="worktree-settings"
      onSubmit={(e) => {
        e.preventDefault();
        const chosen: Chosen = {
          keep: draft.keep,
          olderThanDays: draft.olderThanDays,
          first: draft.first,
          ...(draft.folder?.trim() ? { folder: draft.folder.trim() } : {}),
          ...(draft.setup?.trim() ? { setup: draft.setup.trim() } : {}),
        };
        void save.run(async () => {
          const now = await api.setWorktreeSettings({ settings: chosen });
          setState(now);
          setDraft(now);
        }, t.worktrees.settingsFailed);
      }}
    >
      <dl className="limits">
        <dt>
          <label htmlFor={ids.first}>{t.worktrees.firstLabel}</label>
        </dt>
        <dd>
          <select
            id={ids.first}
            value={draft.first}
            onChange={(e) => change({ first: e.target.value as Chosen["first"] })}
            data-testid="worktree-first"
          >
            <option value="here">{t.worktrees.firstHere}</option>
            <option value="worktree">{t.worktrees.firstWorktree}</option>
          </select>
        </dd>
        <dt>
          <label htmlFor={ids.folder}>{t.worktrees.folderLabel}</label>
        </dt>
        <dd>
          <input
            id={ids.folder}
            value={draft.folder ?? ""}
            placeholder={t.worktrees.folderDefault}
            onChange={(e) => change({ folder: e.target.value })}
            data-testid="worktree-folder"
          />
        </dd>
        <dt>
          <label htmlFor={ids.setup}>{t.worktrees.setupLabel}</label>
        </dt>
        <dd>
          <input
            id={ids.setup}
            className="mono"
            value={draft.setup ?? ""}
            placeholder="npm ci"
            onChange={(e) => change({ setup: e.target.value })}
            data-testid="worktree-setup"
          />
        </dd>
        <dt>
          <label htmlFor={ids.keep}>{t.worktrees.keepLabel}</label>
        </dt>
        <dd>
          <input
            id={ids.keep}
            type="number"
            min={0}
            max={1000}
            value={draft.keep}
            onChange={(e) => change({ keep: Math.max(0, Math.round(Number(e.target.value))) })}
            data-testid="worktree-keep"
          />{" "}
          <label htmlFor={ids.days}>{t.worktrees.daysLabel}</label>{" "}
          <input
            id={ids.days}
            type="number"
            min={0}
            max={3650}
            value={draft.olderThanDays}
            onChange={(e) => change({ olderThanDays: Math.max(0, Math.round(Number(e.target.value))) })}
            data-testid="worktree-days"
          />
        </dd>
      </dl>
      <button type="submit" className="small" disabled={!changed || save.busy} data-testid="worktree-save">
        {t.worktrees.save}
      </button>
      {save.error && (
        <p className="error" role="alert">
          {save.error}
        </p>
      )}
      <h4>{t.worktrees.keptHeading}</h4>
      {state.kept.length === 0 ? (
        <p className="muted">{t.worktrees.keptNone}</p>
      ) : (
        <ul className="kept-worktrees">
          {state.kept.map((tree) => (
            <li key={tree.path} data-testid="kept-worktree" data-path={tree.path} data-reason={tree.reason}>
              <code>{tree.branch}</code> <span className="muted">{tree.path}</span> —{" "}
              {t.worktrees.keptReason[tree.reason]}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
