import { type KeyboardEvent, useEffect, useState } from "react";
import type { SlashCommand } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { menuKey } from "./menu-keys";
import { matchingCommands } from "./SlashMenu";

/**
 * The `/` menu's state: open while the box holds a slash and a command's start (no space yet), with the
 * chat's commands asked for once it opens; its keys move, pick and close it before the box's own.
 */
export function useSlashMenu(api: ChatApi, text: string) {
  const [commands, setCommands] = useState<SlashCommand[] | null>(null);
  const [selected, setSelected] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const typed = /^\/(\S*)$/.exec(text)?.[1];
  const open = typed !== undefined;
  useEffect(() => {
    if (!open) {
      setDismissed(false);
      return;
    }
    // Asked each time the menu opens: templates and skills are files the person may have just added.
    setSelected(0);
    api.listSlashCommands().then(setCommands, () => setCommands([]));
  }, [open, api]);
  const matches = typed === undefined || !commands ? [] : matchingCommands(commands, typed);
  const shown = open && !dismissed && commands !== null;
  const at = Math.min(selected, Math.max(0, matches.length - 1));
  return {
    shown,
    matches,
    selected: at,
    /** Handles a key meant for the menu (preventing its default); returns the command picked, if one was. */
    onKey(e: KeyboardEvent<HTMLTextAreaElement>): SlashCommand | undefined {
      if (!shown) return undefined;
      return menuKey(e, matches, at, setSelected, () => setDismissed(true));
    },
  };
}
