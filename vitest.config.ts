import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "host",
          include: ["test/main/**/*.test.ts"],
          environment: "node",
          setupFiles: ["test/setup/pi-environment.ts"],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: "renderer",
          include: ["test/renderer/**/*.test.{ts,tsx}"],
          environment: "jsdom",
        },
      },
    ],
  },
});
