import type { McpCallView } from "../../../../shared/mcp";
import { useT } from "../../i18n/i18n";
import { useTestId } from "../commands/card-scope";

/**
 * The sounds and resource links of an MCP tool's result, as the server sent them: Pi gives the model only a
 * line for each, so the card is where the person hears and reads them. Links are shown, not opened: a
 * resource lives on the server (the agent reads it with `read_mcp_resource`).
 */
export function McpResultMedia({ call }: { call: McpCallView }) {
  const t = useT();
  const tid = useTestId();
  return (
    <>
      {call.audio && call.audio.length > 0 && (
        <div className="mcp-audio">
          {call.audio.map((clip, index) => (
            // biome-ignore lint/a11y/useMediaCaption: a tool's sound comes without a captions file to give.
            <audio
              // biome-ignore lint/suspicious/noArrayIndexKey: a result's clips have no ids, and never reorder.
              key={index}
              controls
              preload="metadata"
              src={`data:${clip.mimeType};base64,${clip.data}`}
              aria-label={t.mcp.audioLabel(index + 1)}
              data-testid={tid("tool-audio")}
            />
          ))}
        </div>
      )}
      {call.links && call.links.length > 0 && (
        <div className="mcp-links">
          <p className="muted">{t.mcp.linksHeading}</p>
          <ul>
            {call.links.map((link, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: two links may name the same resource.
                key={index}
                data-testid={tid("tool-resource-link")}
                data-uri={link.uri}
              >
                <strong>{link.title ?? link.name}</strong> <code className="mono">{link.uri}</code>
                {link.mimeType && <span className="muted"> {link.mimeType}</span>}
                {link.description && <div className="muted">{link.description}</div>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
