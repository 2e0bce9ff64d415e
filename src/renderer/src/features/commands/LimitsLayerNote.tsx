import type { ResourceLimitsLayer } from "../../../../shared/commands";
import { useT } from "../../i18n/i18n";
import { useTestId } from "./card-scope";

/**
 * Under which layer a command's memory and process limits held while it ran ("limits: cgroup v1"); nothing
 * for a command recorded before the host said it.
 */
export function LimitsLayerNote({ layer }: { layer: ResourceLimitsLayer | undefined }) {
  const t = useT();
  const tid = useTestId();
  if (!layer) return null;
  return (
    <p className="muted limits-layer-note" data-testid={tid("command-limits-layer")} data-layer={layer}>
      {t.resources.cardLayer[layer]}
    </p>
  );
}
