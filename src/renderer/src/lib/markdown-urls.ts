/**
 * Which addresses in a model's Markdown the page will use. The model's text is untrusted (a prompt
 * injection in a file it read can make it write anything), so the rules are an allowlist.
 */

/** The largest `data:` image drawn inline, in characters of its address (about 96 KiB of image). */
export const MAX_DATA_IMAGE_CHARS = 128 * 1024;

/** Link targets a message may point at; anything else (javascript:, data:, file:, relative) is plain text. */
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;
/** In-page targets made by the renderer itself (footnotes), under its own id prefix. */
const FOOTNOTE_TARGET = /^#user-content-[^\s"'<>]*$/;
const REMOTE = /^https?:\/\//i;
// Raster formats only: an SVG may carry script and external references of its own.
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/=\s]*$/i;

/** Whether a link target is one the page will follow. */
export function isSafeHref(href: string): boolean {
  return SAFE_LINK.test(href.trim());
}

/** What an image address in a message becomes. */
export type ImageSource =
  /** A small raster `data:` image: drawn, since it needs no request. */
  | { kind: "inline"; src: string }
  /** An image on a host: never fetched by the page; shown as a link naming the host. */
  | { kind: "remote"; url: string; host: string }
  /** Anything else (relative paths, file:, oversized or non-raster data:): its alt text only. */
  | { kind: "none" };

/** Sorts an image address by the rules above. */
export function classifyImage(src: string | undefined): ImageSource {
  const value = (src ?? "").trim();
  if (DATA_IMAGE.test(value) && value.length <= MAX_DATA_IMAGE_CHARS) return { kind: "inline", src: value };
  if (REMOTE.test(value)) {
    try {
      return { kind: "remote", url: value, host: new URL(value).host };
    } catch {
      return { kind: "none" };
    }
  }
  return { kind: "none" };
}

/**
 * react-markdown's `urlTransform`: keeps an address the components above may use and drops every other
 * (the attribute is then left out). Image sources pass through to `classifyImage`, which decides; no
 * component draws an `<img>` with a remote `src`.
 */
export function markdownUrl(url: string, key: string): string | null {
  if (key === "src") return classifyImage(url).kind === "none" ? null : url;
  if (key === "href") return isSafeHref(url) || FOOTNOTE_TARGET.test(url) ? url : null;
  return null;
}
