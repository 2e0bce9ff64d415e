import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { en, type Messages } from "./en";
import { zh } from "./zh";

/** The languages the UI speaks. */
export type Language = "en" | "zh-CN";

/** Every dictionary, by language. */
export const dictionaries: Record<Language, Messages> = { en, "zh-CN": zh };

const STORAGE_KEY = "pi-desk-language";

/** The person's choice when they made one in settings, else the browser's language. */
export function pickLanguage(stored: string | null, browser: readonly string[]): Language {
  if (stored === "en" || stored === "zh-CN") return stored;
  for (const tag of browser) {
    const lower = tag.toLowerCase();
    if (lower.startsWith("zh")) return "zh-CN";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage refused (a locked-down profile): follow the browser
  }
}

/** The language in use, its messages, and the way to change it. */
export interface I18n {
  /** The language in use. */
  language: Language;
  /** Its messages. */
  t: Messages;
  /** Switch language, remembered across reloads. */
  setLanguage(language: Language): void;
}

const I18nContext = createContext<I18n>({ language: "en", t: en, setLanguage: () => {} });

/** Provides the language: the stored choice, else `navigator.languages`; `initial` fixes it (tests). */
export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [language, setState] = useState<Language>(
    () => initial ?? pickLanguage(storedLanguage(), navigator.languages ?? [navigator.language]),
  );
  const setLanguage = useCallback((next: Language) => {
    setState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Not remembered; it still applies until the page reloads.
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const value = useMemo(
    () => ({ language, t: dictionaries[language], setLanguage }),
    [language, setLanguage],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The language in use and its messages. */
export function useI18n(): I18n {
  return useContext(I18nContext);
}

/** The messages of the language in use. */
export function useT(): Messages {
  return useContext(I18nContext).t;
}
