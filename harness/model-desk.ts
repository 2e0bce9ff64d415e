import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type DeskServer, type DeskServerOptions, startDeskServer, stopDeskServer } from "./desk-server.ts";

/** The key the test provider expects; Pi reads it from `LOCAL_KEY`, as models.json says. */
export const LOCAL_KEY = "test-key-local";

/** The models the test provider serves, as `models.json` lists them: the first reads images, the second not. */
export const LOCAL_MODELS = [
  { id: "m1", name: "Local One", input: ["text", "image"] },
  { id: "m2", name: "Local Two", input: ["text"] },
] as const;

/** A browser host whose models come from a temporary Pi agent dir pointing at a loopback model server. */
export interface ModelDesk {
  /** The running host. */
  server: DeskServer;
  /** Pi's agent dir it reads (`models.json`, `settings.json`, `sessions/`). */
  agentDir: string;
  /** Stops the host and starts it again on the same workspace, agent dir and data dir (a restart). */
  restart(): Promise<DeskServer>;
  /** Stops the host and removes every folder it used. */
  cleanup(): Promise<void>;
}

/** How to set up the host's Pi. */
export interface ModelDeskOptions extends DeskServerOptions {
  /** Pi's retry settings (`settings.json` `retry`); by default quick retries, so specs stay fast. */
  retry?: Record<string, unknown>;
  /** More of Pi's settings (`settings.json`), e.g. `compaction`. */
  settings?: Record<string, unknown>;
  /** Files of the agent dir written before the host starts, by path inside it (`prompts/review.md`). */
  agentFiles?: Record<string, string>;
}

/**
 * Starts a browser host with a real provider configured the way a person configures a local server:
 * `models.json` names an `openai-completions` provider at `baseUrl` whose key comes from `LOCAL_KEY`, and
 * `settings.json` makes its first model Pi's default. Pi's retries keep their count (3) but wait
 * milliseconds (`retry.baseDelayMs`) instead of 2, 4 and 8 seconds.
 */
export async function startModelDesk(baseUrl: string, options: ModelDeskOptions = {}): Promise<ModelDesk> {
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-e2e-"));
  const home = mkdtempSync(join(tmpdir(), "pi-desk-e2e-home-"));
  const agentDir = join(home, "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, "models.json"),
    JSON.stringify({
      providers: {
        local: {
          name: "Local",
          baseUrl,
          api: "openai-completions",
          apiKey: "$LOCAL_KEY",
          authHeader: true,
          models: LOCAL_MODELS.map((model) => ({ ...model, contextWindow: 32000, maxTokens: 4096 })),
        },
      },
    }),
  );
  writeFileSync(
    join(agentDir, "settings.json"),
    JSON.stringify({
      defaultProvider: "local",
      defaultModel: LOCAL_MODELS[0].id,
      retry: options.retry ?? { enabled: true, maxRetries: 3, baseDelayMs: 50 },
      ...options.settings,
    }),
  );
  for (const [path, text] of Object.entries(options.agentFiles ?? {})) {
    mkdirSync(dirname(join(agentDir, path)), { recursive: true });
    writeFileSync(join(agentDir, path), text);
  }
  const env = {
    PI_OFFLINE: "1",
    PI_CODING_AGENT_DIR: agentDir,
    PI_DESK_DATA_DIR: join(home, "data"),
    LOCAL_KEY,
    ...options.env,
  };
  const start = () => startDeskServer(workspace, { ...options, env });
  let running: { server: DeskServer; child: ChildProcess } = await start();
  return {
    get server() {
      return running.server;
    },
    agentDir,
    restart: async () => {
      await stopDeskServer(running.child);
      running = await start();
      return running.server;
    },
    cleanup: async () => {
      await stopDeskServer(running.child);
      rmSync(workspace, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}
