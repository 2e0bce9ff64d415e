import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base } from "@playwright/test";

/** A browser host started for a test, as a person starts it: `node out/main/serve.js --workspace <dir>`. */
export interface DeskServer {
  /** The URL it printed, token included. */
  url: string;
  /** The URL without its token. */
  origin: string;
  /** The workspace folder it serves. */
  workspace: string;
}

/** Starts the built browser host on a free port and waits for the URL it prints. */
export async function startDeskServer(
  workspace: string,
): Promise<{ server: DeskServer; child: ChildProcess }> {
  const child = spawn(process.execPath, ["out/main/serve.js", "--workspace", workspace, "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The browser host did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Open (http:\/\/\S+#token=\S+)/.exec(output);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`The browser host exited with ${code}:\n${output}`)));
  });
  return { server: { url, origin: new URL(url).origin, workspace }, child };
}

/** Playwright's `test` with a fresh workspace and browser host per test. */
export const test = base.extend<{ desk: DeskServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  desk: async ({}, use) => {
    const workspace = mkdtempSync(join(tmpdir(), "pi-desk-e2e-"));
    const { server, child } = await startDeskServer(workspace);
    await use(server);
    child.kill("SIGTERM");
    rmSync(workspace, { recursive: true, force: true });
  },
});

export { expect } from "@playwright/test";
