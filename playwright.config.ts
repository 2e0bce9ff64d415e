import { defineConfig } from "@playwright/test";
import { findElectronBinary } from "./e2e/support/electron-binary";
import { chromiumArgs, chromiumPath } from "./harness/chromium";

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
        launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
      },
    },
    { name: "electron", testMatch: /electron\/.*\.spec\.ts/ },
  ],
});
