import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type OpenAiServer, startOpenAiServer, writeLocalProvider } from "../../../harness/openai-server";
import { DeskHost } from "../../../src/main/core/desk-host";
import { calls, waitFor } from "./host-harness";

/*
 * The model the person picks stays picked: for the chat, for the workspace's new chats, across a restart;
 * a reopened chat keeps its own, and the picker says when a model is gone. Real Pi runtime, models from
 * models.json in this file's agent dir, answers from a loopback model server.
 */

let server: OpenAiServer;
let root: string;
const hosts: DeskHost[] = [];

beforeAll(async () => {
  server = await startOpenAiServer(() => ({ text: "Hello." }));
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** Pi's models.json in the agent dir test/setup made for this file: a local provider with these models. */
function writeModels(ids: string[]) {
  const agentDir = process.env.PI_CODING_AGENT_DIR as string;
  writeLocalProvider(agentDir, server.baseUrl, {
    models: ids.map((id) => ({ id, name: id.toUpperCase(), reasoning: true })),
  });
}

async function startHost(): Promise<DeskHost> {
  const host = await DeskHost.create({
    shell: "browser",
    version: "test",
    workspace: { path: join(root, "repo"), name: "repo" },
    dataRoot: join(root, "data"),
  });
  hosts.push(host);
  return host;
}

async function restart(host: DeskHost): Promise<DeskHost> {
  await host.dispose();
  hosts.splice(hosts.indexOf(host), 1);
  return startHost();
}

const current = (host: DeskHost) => host.state().models.current;

describe("the model the person picks", () => {
  it("applies to the chat, becomes the workspace's default for new chats, and survives a restart", async () => {
    root = mkdtempSync(join(tmpdir(), "pi-desk-models-"));
    mkdirSync(join(root, "repo"));
    writeModels(["m1", "m2"]);
    let host = await startHost();
    expect(current(host)).toEqual({ provider: "local", id: "m1" });

    await calls(host).setModel({ provider: "local", id: "m2" });
    await calls(host).setThinkingLevel({ level: "high" });
    expect(current(host)).toEqual({ provider: "local", id: "m2" });

    await calls(host).newSession();
    expect(current(host)).toEqual({ provider: "local", id: "m2" });
    expect(host.state().models.thinkingLevel).toBe("high");

    host = await restart(host);
    expect(current(host)).toEqual({ provider: "local", id: "m2" });
    expect(host.state().models.thinkingLevel).toBe("high");
    expect(host.state().models.unavailable).toBeUndefined();
    // Pi's own settings are the person's: the pick is kept in Pi Desk's workspace settings only.
    expect(readFileSync(join(process.env.PI_CODING_AGENT_DIR as string, "settings.json"), "utf8")).toContain(
      '"m1"',
    );
  });

  it("keeps a reopened chat's model, and says so when a chat's or the workspace's model is gone", async () => {
    root = mkdtempSync(join(tmpdir(), "pi-desk-models-"));
    mkdirSync(join(root, "repo"));
    writeModels(["m1", "m2", "m3"]);
    let host = await startHost();
    await calls(host).setModel({ provider: "local", id: "m3" });
    await calls(host).prompt({ text: "Hi" });
    await waitFor(() =>
      host.state().session?.transcript.some((item) => item.kind === "assistant" && item.text === "Hello."),
    );
    await waitFor(async () => (await calls(host).listSessions()).length === 1);
    const [chat] = await calls(host).listSessions();

    // The workspace moves on to m2; the chat that used m3 still opens with m3.
    await calls(host).newSession();
    await calls(host).setModel({ provider: "local", id: "m2" });
    await calls(host).openSession({ path: chat?.path as string });
    expect(current(host)).toEqual({ provider: "local", id: "m3" });
    expect(host.state().models.unavailable).toBeUndefined();

    // m3 leaves models.json: the chat opens with Pi's default, and the picker is told.
    writeModels(["m1", "m2"]);
    host = await restart(host);
    await calls(host).openSession({ path: chat?.path as string });
    expect(current(host)).toEqual({ provider: "local", id: "m1" });
    expect(host.state().models.unavailable).toEqual({ provider: "local", id: "m3", of: "chat" });
    await calls(host).setModel({ provider: "local", id: "m1" });
    expect(host.state().models.unavailable).toBeUndefined();

    // The workspace's default leaves too: a new chat falls back and says whose model is gone.
    await calls(host).setModel({ provider: "local", id: "m2" });
    writeModels(["m1"]);
    host = await restart(host);
    expect(current(host)).toEqual({ provider: "local", id: "m1" });
    expect(host.state().models.unavailable).toEqual({ provider: "local", id: "m2", of: "workspace" });
  });
});
