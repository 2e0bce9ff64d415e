import { type FormEvent, memo, useId, useState } from "react";
import type { ModelsState } from "../../../../shared/models";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";

/**
 * The way to a usable model: the host's word on what is wrong, an API key field per provider Pi knows,
 * and where Pi's own configuration lives for anything more.
 */
export const ModelSetup = memo(function ModelSetup({ models, api }: { models: ModelsState; api: ChatApi }) {
  const t = useT();
  const providers = [...new Map(models.options.map((o) => [o.provider, o.hasKey])).entries()].sort(
    ([a, aKey], [b, bKey]) => Number(aKey) - Number(bKey) || a.localeCompare(b),
  );
  return (
    <section className="model-setup" data-testid="model-setup" aria-label={t.models.setupHeading}>
      {models.problem && (
        <p className="error" role="alert" data-testid="model-problem">
          {models.problem}
        </p>
      )}
      <p>{t.models.setupIntro}</p>
      <ul className="setup-hints">
        <li>
          <code>~/.pi/agent/models.json</code>: {t.models.setupFile}
        </li>
        <li>{t.models.setupEnv}</li>
      </ul>
      <div className="key-forms">
        {providers.map(([provider, hasKey]) => (
          <KeyForm key={provider} provider={provider} hasKey={hasKey} api={api} />
        ))}
        {/* With no model known at all there is no provider to list: the person names one. */}
        {providers.length === 0 && <KeyForm hasKey={false} api={api} />}
      </div>
    </section>
  );
});

function KeyForm({ provider: fixed, hasKey, api }: { provider?: string; hasKey: boolean; api: ChatApi }) {
  const t = useT();
  const id = useId();
  const [named, setNamed] = useState("");
  const provider = fixed ?? named.trim();
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const save = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = key.trim();
    if (!trimmed || !provider) return;
    setBusy(true);
    setMessage(null);
    api.setApiKey({ provider, key: trimmed }).then(
      () => {
        // The key leaves the page's memory as soon as the host has it.
        setKey("");
        setBusy(false);
        setMessage({ ok: true, text: t.models.keySaved(provider) });
      },
      (error: unknown) => {
        setBusy(false);
        setMessage({ ok: false, text: t.models.keyFailed(reasonOf(error)) });
      },
    );
  };
  return (
    <form className="key-form" onSubmit={save}>
      {fixed === undefined && (
        <>
          <label htmlFor={`${id}-provider`}>{t.models.providerLabel}</label>
          <input
            id={`${id}-provider`}
            value={named}
            spellCheck={false}
            placeholder="anthropic"
            onChange={(e) => setNamed(e.target.value)}
            data-testid="api-key-provider"
          />
        </>
      )}
      <label htmlFor={id}>
        {t.models.keyLabel(provider || "…")}
        {hasKey && <span className="tag">{t.models.hasKey}</span>}
      </label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={key}
        onChange={(e) => setKey(e.target.value)}
        data-testid={fixed ? `api-key-${fixed}` : "api-key-other"}
      />
      <button type="submit" disabled={busy || key.trim() === "" || !provider}>
        {t.models.keySave}
      </button>
      {message && (
        <p className={message.ok ? "muted" : "error"} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      )}
    </form>
  );
}
