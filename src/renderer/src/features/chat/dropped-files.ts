import type { Messages } from "../../i18n/en";

/** What a dropped file that is not an image becomes: a mention of its path in the chat's folder, or why not. */
export type DroppedFile = { mention: string } | { refused: string };

/**
 * A file dropped from the OS, named as the `@` finder names one: `@path` relative to the chat's folder (in
 * quotes around spaces) when it lies inside it; refused, saying why, when it lies outside (the chat's tools
 * read only inside its folder) or when the page cannot know where it lies (a browser never says).
 */
export function droppedFile(file: File, folder: string | undefined, t: Messages): DroppedFile {
  const path = window.piDeskFiles?.pathOf(file);
  if (!path) return { refused: t.chat.dropNoPath(file.name) };
  const root = folder?.replace(/\/+$/, "");
  if (!root || !path.startsWith(`${root}/`) || path.split("/").includes("..")) {
    return { refused: t.chat.dropOutside(file.name, root ?? "") };
  }
  const inside = path.slice(root.length + 1);
  return { mention: /\s/.test(inside) ? `@"${inside}"` : `@${inside}` };
}
