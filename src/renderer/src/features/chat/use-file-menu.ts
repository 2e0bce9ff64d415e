import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import type { FoundFiles } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { reasonOf } from "../../lib/format";
import { menuKey } from "./menu-keys";

/** An `@` mention being typed: where its `@` is, and what follows it up to the caret. */
export interface Mention {
  start: number;
  query: string;
}

/** The mention the caret is in: an `@` at the start or after a space, then no space (or `@"` and no quote). */
export function mentionAt(text: string, caret: number): Mention | undefined {
  const before = text.slice(0, caret);
  const found = /(^|\s)@"([^"]*)$/.exec(before) ?? /(^|\s)@(\S*)$/.exec(before);
  if (!found) return undefined;
  return { start: found.index + (found[1] as string).length, query: found[2] as string };
}

/**
 * The text with the mention replaced by the picked path, as the `pi` command line writes it: `@path`, in
 * quotes when the path holds a space; a file is followed by a space, a folder is left open to go on typing.
 * Returns the new text and where the caret goes.
 */
export function withMention(text: string, mention: Mention, caret: number, path: string) {
  const end = caret + (/^[^\s"]*"?/.exec(text.slice(caret))?.[0].length ?? 0);
  const folder = path.endsWith("/");
  const written = /\s/.test(path) ? `@"${path}"` : `@${path}`;
  const inserted = folder || /^\s/.test(text.slice(end)) ? written : `${written} `;
  // A quoted folder keeps its caret before the closing quote, so typing goes on inside it.
  const at = mention.start + inserted.length - (folder && written.endsWith('"') ? 1 : 0);
  return { text: text.slice(0, mention.start) + inserted + text.slice(end), caret: at };
}

/** The text with `words` put at the caret, a space on either side where a word would touch them. */
export function withInserted(text: string, caret: number, words: string) {
  const before = text.slice(0, caret);
  const after = text.slice(caret);
  const inserted = `${before && !/\s$/.test(before) ? " " : ""}${words}${/^\s/.test(after) ? "" : " "}`;
  return { text: before + inserted + after, caret: caret + inserted.length };
}

/**
 * The `@` menu's state: open while the caret is in a mention, asking the host for the chat folder's best
 * matches at each key (the folder listed again as the menu opens); answers to a query since passed are
 * dropped. Its keys move, pick and close it before the box's own.
 */
export function useFileMenu(api: ChatApi, text: string, caret: number) {
  const mention = mentionAt(text, caret);
  const open = mention !== undefined;
  const query = mention?.query ?? "";
  const [found, setFound] = useState<FoundFiles | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [selected, setSelected] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const asked = useRef(0);
  const opened = useRef(false);
  useEffect(() => {
    if (!open) {
      opened.current = false;
      setDismissed(false);
      setFound(null);
      return;
    }
    const fresh = !opened.current;
    opened.current = true;
    const ask = ++asked.current;
    api.findFiles(fresh ? { query, fresh } : { query }).then(
      (result) => {
        if (ask !== asked.current) return;
        setFound(result);
        setFailed(null);
        setSelected(0);
      },
      (e: unknown) => {
        if (ask === asked.current) setFailed(reasonOf(e));
      },
    );
  }, [open, query, api]);
  const paths = found?.paths ?? [];
  const at = Math.min(selected, Math.max(0, paths.length - 1));
  return {
    shown: open && !dismissed,
    mention,
    found,
    failed,
    selected: at,
    /** Handles a key meant for the menu (preventing its default); returns the path picked, if one was. */
    onKey(e: KeyboardEvent<HTMLTextAreaElement>): string | undefined {
      if (!open || dismissed) return undefined;
      return menuKey(e, paths, at, setSelected, () => setDismissed(true));
    },
  };
}
