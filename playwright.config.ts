import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";
import { findElectronBinary } from "./e2e/support/electron-binary";

/** Debian's Chromium where it is installed (Playwright's own download is unreachable here), else Playwright's. */
const chromiumPath =
  process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

const electron = findElectronBinary();
// Said once, by the runner (workers load this file too), so a skipped Electron project is never silent.
if (electron.path === null && process.env.TEST_WORKER_INDEX === undefined) {
  console.log(`Electron project skipped: ${electron.reason}`);
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: { trace: "retain-on-failure", screenshot: "only-on-failure" },
  projects: [
    {
      name: "browser-host",
      testIgnore: /electron\//,
      use: {
        browserName: "chromium",
        launchOptions: {
          executablePath: chromiumPath,
          // Without the networking flags Chromium floods a closed network with connection attempts.
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    },
    { name: "electron", testMatch: /electron\/.*\.spec\.ts/ },
  ],
});
