import { memo, useId, useState } from "react";
import type { ModelsState, ThinkingLevel } from "../../../../shared/models";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";

/** Whether any model can answer: one is chosen, its provider has a key, and the host names no problem. */
export function modelsUsable(models: ModelsState): boolean {
  if (models.problem) return false;
  const current = models.current;
  return (
    current !== null &&
    models.options.some((o) => o.provider === current.provider && o.id === current.id && o.hasKey)
  );
}

const keyOf = (provider: string, id: string) => `${provider}/${id}`;

/** The model in use and how hard it thinks; models without a key are listed but cannot be picked. */
export const ModelPicker = memo(function ModelPicker({ models, api }: { models: ModelsState; api: ChatApi }) {
  const t = useT();
  const modelId = useId();
  const levelId = useId();
  const [error, setError] = useState<string | null>(null);
  const current = models.current ? keyOf(models.current.provider, models.current.id) : "";
  const option = models.options.find((o) => keyOf(o.provider, o.id) === current);
  const levels: ThinkingLevel[] = option?.thinkingLevels ?? ["off"];

  const pick = (value: string) => {
    const chosen = models.options.find((o) => keyOf(o.provider, o.id) === value);
    if (!chosen) return;
    setError(null);
    api
      .setModel({ provider: chosen.provider, id: chosen.id })
      .catch((e: unknown) => setError(t.models.changeFailed(reasonOf(e))));
  };
  const think = (level: ThinkingLevel) => {
    setError(null);
    api.setThinkingLevel({ level }).catch((e: unknown) => setError(t.models.changeFailed(reasonOf(e))));
  };

  return (
    <div className="model-picker">
      <label htmlFor={modelId}>{t.models.model}</label>
      <select
        id={modelId}
        value={current}
        onChange={(e) => pick(e.target.value)}
        title={option ? `${option.name} (${option.provider})` : undefined}
        data-testid="model-select"
      >
        {!option && <option value="">{t.models.none}</option>}
        {models.options.map((o) => (
          <option key={keyOf(o.provider, o.id)} value={keyOf(o.provider, o.id)} disabled={!o.hasKey}>
            {o.name} ({o.provider}){o.hasKey ? "" : ` — ${t.models.noKey}`}
          </option>
        ))}
      </select>
      <label htmlFor={levelId}>{t.models.thinking}</label>
      <select
        id={levelId}
        value={levels.includes(models.thinkingLevel) ? models.thinkingLevel : (levels[0] ?? "off")}
        onChange={(e) => think(e.target.value as ThinkingLevel)}
        disabled={levels.length <= 1}
        data-testid="thinking-select"
      >
        {levels.map((level) => (
          <option key={level} value={level}>
            {t.models.levels[level]}
          </option>
        ))}
      </select>
      {models.unavailable && (
        <p className="warning model-unavailable" role="status" data-testid="model-unavailable">
          {t.models.unavailable[models.unavailable.of](
            keyOf(models.unavailable.provider, models.unavailable.id),
          )}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
});
