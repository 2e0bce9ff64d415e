import { useEffect, useState } from "react";
import type { McpScriptsState } from "../../../../shared/mcp";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { reasonOf } from "../../lib/format";

/**
 * Settings' "Scripts and tool search": the workspace's switch for Pi's codemode and tool_search, off by
 * default, with why; and whether this chat has them (a chat keeps what it started with).
 */
export function ScriptsSetting({ scripts, api }: { scripts: McpScriptsState | undefined; api: ChatApi }) {
  const t = useT();
  const words = t.mcp.servers.scripts;
  // The host's word once it has told this chat; until then, what the person just chose.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const told = scripts?.on;
  // Once the host tells the choice, its word holds again (another window may change it later).
  useEffect(() => {
    if (told !== undefined) setChosen((mine) => (mine === told ? null : mine));
  }, [told]);
  const on = chosen ?? told ?? false;
  const toggle = (enabled: boolean) => {
    setError(null);
    setChosen(enabled);
    api.setScriptsEnabled({ enabled }).catch((e: unknown) => {
      setChosen(null);
      setError(words.toggleFailed(reasonOf(e)));
    });
  };
  return (
    <div data-testid="scripts-setting">
      <label>
        <input
          type="checkbox"
          checked={on}
          onChange={(e) => toggle(e.target.checked)}
          data-testid="codemode-toggle"
        />{" "}
        {words.toggle}
      </label>
      <p className="muted" data-testid="codemode-why">
        {words.why}
      </p>
      <p className="muted">{words.exposure}</p>
      <p className="muted" data-testid="codemode-this-chat">
        {scripts?.inThisChat ? words.thisChatOn : words.thisChatOff} {words.fromNextChat}
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
