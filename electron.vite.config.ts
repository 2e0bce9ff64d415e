import { resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "electron-vite";

export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        // Two shells over one host core: the Electron app and the loopback browser host (npm run serve).
        input: { index: resolve("src/main/electron/main.ts"), serve: resolve("src/main/browser/serve.ts") },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot be an ES module: Electron loads it as CommonJS.
      rolldownOptions: { output: { format: "cjs", entryFileNames: "[name].cjs" } },
    },
  },
  renderer: {
    root: resolve("src/renderer"),
    plugins: [react()],
    build: { minify: true, rolldownOptions: { input: resolve("src/renderer/index.html") } },
  },
});
