import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import {
  type ModelReplies,
  type OpenAiServer,
  startOpenAiServer,
  writeLocalProvider,
} from "../../../harness/openai-server";
import { DeskHost, type DeskHostOptions } from "../../../src/main/core/desk-host";

const cleanups: (() => Promise<void>)[] = [];
const agentDirBefore = process.env.PI_CODING_AGENT_DIR;
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  process.env.PI_CODING_AGENT_DIR = agentDirBefore;
});

/** A host on Pi's real provider path, the folders it writes and the model server it talks to. */
export interface RealProviderHost {
  /** The host, on a fresh workspace. */
  host: DeskHost;
  /** The loopback model server answering as `replies` says. */
  server: OpenAiServer;
  /** Pi's agent folder for this host (models.json, settings.json, auth.json, sessions/). */
  agentDir: string;
  /** The folder holding the workspace, the agent folder and the data folder. */
  root: string;
  /** The data folder. */
  dataRoot: string;
  /** The workspace. */
  workspace: string;
  /** Disposes the host and starts another on the same folders (a restart), with these options. */
  restart(options?: Partial<DeskHostOptions>): Promise<DeskHost>;
}

/**
 * A host whose model is a provider from its own agent folder's models.json (`local`, model `m1`, an
 * OpenAI-style server on loopback), with no scripted model: Pi's runtime, credentials and session files
 * as a person's run has them. The provider's key comes from a variable nobody sets, so it has none until
 * one is given. Disposed, and its folders removed, after the test.
 */
export async function startRealProviderHost(
  replies: ModelReplies,
  options: Partial<DeskHostOptions> = {},
): Promise<RealProviderHost> {
  const root = mkdtempSync(join(tmpdir(), "pi-desk-real-"));
  const workspace = join(root, "repo");
  const agentDir = join(root, "agent");
  const dataRoot = join(root, "data");
  mkdirSync(workspace);
  mkdirSync(agentDir);
  const server = await startOpenAiServer(replies);
  writeLocalProvider(agentDir, server.baseUrl, {
    provider: { name: "Local", apiKey: "$PI_DESK_TEST_UNSET_KEY", authHeader: true },
  });
  delete process.env.PI_DESK_SCRIPT;
  delete process.env.PI_DESK_TEST_UNSET_KEY;
  // Pi takes its agent folder from this variable whenever it looks.
  process.env.PI_CODING_AGENT_DIR = agentDir;
  const create = (more: Partial<DeskHostOptions>) =>
    DeskHost.create({
      shell: "browser",
      version: "test",
      workspace: { path: workspace, name: "repo" },
      dataRoot,
      ...more,
    });
  let host = await create(options);
  cleanups.push(async () => {
    await host.dispose();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });
  return {
    host,
    server,
    agentDir,
    root,
    dataRoot,
    workspace,
    restart: async (more = options) => {
      await host.dispose();
      host = await create(more);
      return host;
    },
  };
}

/** Every file under a folder, as text. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    // A command's run record is removed just after its result: one listed may be gone by now.
    const text = statSync(path, { throwIfNoEntry: false })?.isFile() ? readOrGone(path) : undefined;
    if (text !== undefined) out.push(text);
  }
  return out;
}

function readOrGone(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
