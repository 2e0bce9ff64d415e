import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  errorReply,
  type OpenAiServer,
  startOpenAiServer,
  writeLocalProvider,
} from "../../../harness/openai-server";
import { DeskHost } from "../../../src/main/core/desk-host";
import type { TurnErrorItem } from "../../../src/shared/transcript";
import { calls, waitFor } from "./host-harness";

/*
 * Pi's real provider path, retries included, against a loopback model server: what the transcript holds
 * live and after the chat is reopened.
 */

let server: OpenAiServer | undefined;
let root: string;
const hosts: DeskHost[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

async function startHost(
  replies: Parameters<typeof startOpenAiServer>[0],
  options: { serverGone?: boolean } = {},
): Promise<DeskHost> {
  server = await startOpenAiServer(replies);
  // A baseUrl where nothing listens any more: the connection is refused.
  if (options.serverGone) await server.close();
  root = mkdtempSync(join(tmpdir(), "pi-desk-errors-"));
  mkdirSync(join(root, "repo"));
  const agentDir = process.env.PI_CODING_AGENT_DIR as string;
  writeLocalProvider(agentDir, server.baseUrl, { settings: { retry: { maxRetries: 3, baseDelayMs: 10 } } });
  const host = await DeskHost.create({
    shell: "browser",
    version: "test",
    workspace: { path: join(root, "repo"), name: "repo" },
    dataRoot: join(root, "data"),
  });
  hosts.push(host);
  return host;
}

const turnErrors = (host: DeskHost) =>
  (host.state().session?.transcript ?? []).filter(
    (item): item is TurnErrorItem => item.kind === "turn-error",
  );

describe("a provider that keeps failing", () => {
  it("is one failed turn counting every request, live and when the chat is reopened", async () => {
    const host = await startHost(() => errorReply(503, "The engine is overloaded."));
    await calls(host).prompt({ text: "Hello" });
    await waitFor(() => host.state().session?.running === false && turnErrors(host)[0]?.state === "failed");
    expect(server?.requests).toHaveLength(4);
    expect(turnErrors(host)).toEqual([
      expect.objectContaining({
        errorKind: "provider",
        status: 503,
        message: "The engine is overloaded.",
        attempts: 4,
      }),
    ]);

    const [chat] = await waitFor(async () => {
      const sessions = await calls(host).listSessions();
      return sessions.length > 0 && sessions;
    });
    await calls(host).newSession();
    await calls(host).openSession({ path: chat?.path as string });
    const reopened = turnErrors(host);
    expect(reopened).toHaveLength(1);
    expect(reopened[0]).toMatchObject({
      errorKind: "provider",
      message: "The engine is overloaded.",
      state: "failed",
    });
  });

  it("recovers when a retry is answered: the entry says so and the answer follows", async () => {
    const host = await startHost((_request, index) =>
      index === 0 ? errorReply(500, "Try again.") : { text: "Here I am." },
    );
    await calls(host).prompt({ text: "Hello" });
    await waitFor(
      () => host.state().session?.running === false && turnErrors(host)[0]?.state === "recovered",
    );
    expect(turnErrors(host)[0]?.attempts).toBe(server?.requests.length);
    expect(host.state().session?.transcript.at(-1)).toMatchObject({ kind: "assistant", text: "Here I am." });
  });

  it("a model name the provider does not serve is a model error, with Pi's text taken apart", async () => {
    const host = await startHost(() =>
      errorReply(404, "The model `m1` does not exist or you do not have access to it."),
    );
    await calls(host).prompt({ text: "Hello" });
    await waitFor(() => host.state().session?.running === false && turnErrors(host).length === 1);
    expect(turnErrors(host)[0]).toMatchObject({
      errorKind: "model",
      status: 404,
      message: "The model `m1` does not exist or you do not have access to it.",
      attempts: 1,
    });
    // Pi's text for it: the status, then the body's error object as JSON.
    expect(turnErrors(host)[0]?.raw).toMatch(/^404: \{"message":"The model `m1` does not exist/);
  });

  it("a server that cannot be reached is a network error, retried like a server error", async () => {
    const host = await startHost(() => ({ text: "never" }), { serverGone: true });
    await calls(host).prompt({ text: "Hello" });
    await waitFor(() => host.state().session?.running === false && turnErrors(host)[0]?.state === "failed");
    const [error] = turnErrors(host);
    expect(error).toMatchObject({ errorKind: "network", attempts: 4 });
    expect(error?.raw).toMatch(/ECONNREFUSED/);
    expect(error).not.toHaveProperty("status");
  });
});
