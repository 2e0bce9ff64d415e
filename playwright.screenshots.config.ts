import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "./harness/chromium";

/** `npm run screenshots`: the README's screenshots from the real app (see e2e/screenshots/). */
export default defineConfig({
  testDir: "e2e/screenshots",
  testMatch: "*.ts",
  outputDir: "test-results/screenshots",
  fullyParallel: false,
  workers: 1,
  reporter: "list",
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
});
