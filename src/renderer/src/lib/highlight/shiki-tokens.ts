import { createHighlighterCore, type HighlighterCore } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import { bundledLanguages } from "shiki/langs";

/**
 * Shiki, loaded only when the first code block with a language is drawn (this module is imported
 * dynamically), each grammar only when a block in its language appears (Shiki's bundled languages are
 * dynamic imports, one chunk each). The JavaScript regex engine keeps the page's CSP as it is: no wasm.
 */

/** One highlighted piece of a line: its text and its colour in the light and the dark theme. */
export interface HighlightedToken {
  /** The token's text. */
  content: string;
  /** CSS custom properties `--shiki-light` and `--shiki-dark` (colours), read by the stylesheet. */
  style: Record<string, string>;
}

/** Code longer than this is drawn plain: tokenising it would hold the main thread too long. */
export const MAX_HIGHLIGHTED_CHARS = 50_000;

let highlighter: Promise<HighlighterCore> | undefined;

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import("shiki/themes/github-light.mjs"), import("shiki/themes/github-dark.mjs")],
    langs: [],
    engine: createJavaScriptRegexEngine(),
  });
  return highlighter;
}

/** Whether Shiki knows a language by this name or alias. */
export function knowsLanguage(language: string): boolean {
  return Object.hasOwn(bundledLanguages, language.toLowerCase());
}

/**
 * The code's lines as tokens in both themes, or null where the language is unknown or the code too long
 * (the caller draws it plain).
 */
export async function highlightLines(code: string, language: string): Promise<HighlightedToken[][] | null> {
  const lang = language.toLowerCase();
  if (!knowsLanguage(lang) || code.length > MAX_HIGHLIGHTED_CHARS) return null;
  const shiki = await getHighlighter();
  const loader = bundledLanguages[lang as keyof typeof bundledLanguages];
  await shiki.loadLanguage(loader);
  const { tokens } = shiki.codeToTokens(code, {
    lang,
    themes: { light: "github-light", dark: "github-dark" },
    defaultColor: false,
  });
  return tokens.map((line) =>
    line.map((token) => ({ content: token.content, style: token.htmlStyle ?? {} })),
  );
}
