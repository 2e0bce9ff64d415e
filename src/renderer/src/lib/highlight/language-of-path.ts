/**
 * The Shiki language a file's name suggests: its extension, lower-cased (Shiki knows most languages by
 * their extension; one it does not know is drawn plain). Kept apart from shiki-tokens.ts, which loads lazily.
 */
export function languageOfPath(path: string | undefined): string {
  const name = path?.split("/").pop() ?? "";
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}
