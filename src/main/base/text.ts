/** A piece of source text short enough to quote in a message: at most 40 characters, then an ellipsis. */
export function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
