import { existsSync } from "node:fs";

/*
 * Chromium as the end-to-end specs and `npm run bench:ui` launch it. No imports beyond node:, so the bench
 * can load this file directly on Node 22.
 */

/** Debian's Chromium where it is installed (Playwright's own download is unreachable here), else Playwright's. */
export const chromiumPath: string | undefined =
  process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

/** Without the networking flags Chromium floods a closed network with connection attempts. */
export const chromiumArgs: string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
