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
import { DeskModels } from "../../../src/main/agent/model-runtime";
import { openWorkspaceParts } from "../../../src/main/agent/workspace-parts";
import type { WorkspaceSession } from "../../../src/main/agent/workspace-session";
import { openWorkspaceSession } from "../../../src/main/agent/workspace-session-factory";
import type { TurnErrorItem } from "../../../src/shared/transcript";
import { waitFor } from "../core/host-harness";

/*
 * Two chats on one model runtime (as the host will run several at once, issue 32), through Pi's real
 * provider path against a loopback model server: the status and wait a provider sent for one chat's
 * request must not end up on the other chat's failure, whatever the timing.
 */

let server: OpenAiServer | undefined;
let root = "";
const chats: WorkspaceSession[] = [];

afterEach(async () => {
  for (const chat of chats.splice(0)) await chat.dispose();
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

async function openChat(models: DeskModels, name: string): Promise<WorkspaceSession> {
  const path = join(root, name);
  mkdirSync(path);
  const sandbox = {
    available: false,
    kind: "none",
    problem: "Not needed: these chats run no commands.",
  } as const;
  const parts = await openWorkspaceParts({
    path,
    dataRoot: join(root, "data"),
    sandbox,
    onSavedOutputs: () => {},
  });
  const chat = await openWorkspaceSession({
    workspace: { id: name, path, name },
    parts,
    models,
    emit: () => {},
    sandbox,
    hiddenPaths: [],
  });
  chats.push(chat);
  return chat;
}

const turnErrors = (chat: WorkspaceSession) =>
  chat.state().transcript.filter((item): item is TurnErrorItem => item.kind === "turn-error");

/** The text of the person's last message in a request: which chat sent it. */
const lastUserText = (messages: { role: string; content?: unknown }[]) => {
  const content = messages.filter((message) => message.role === "user").at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
};

describe("a provider failure in one chat of several", () => {
  it("stays with the chat whose request failed", async () => {
    let releaseA: () => void = () => {};
    const aHeld = new Promise<void>((resolve) => {
      releaseA = resolve;
    });
    let aArrived = false;
    server = await startOpenAiServer(async (request) => {
      if (lastUserText(request.messages).includes("from chat A")) {
        aArrived = true;
        // Held until chat B's failure is over; then the connection drops, with no status to see.
        await aHeld;
        return { hangUp: true };
      }
      return errorReply(429, "Rate limit reached for requests.", { "retry-after": "30" });
    });
    root = mkdtempSync(join(tmpdir(), "pi-desk-chats-"));
    const agentDir = process.env.PI_CODING_AGENT_DIR as string;
    // No retries: one request per turn, so the order of the two chats' requests is the test's.
    writeLocalProvider(agentDir, server.baseUrl, { settings: { retry: { enabled: false } } });
    const models = await DeskModels.create();
    const a = await openChat(models, "a");
    const b = await openChat(models, "b");

    a.composer.prompt("Hello from chat A");
    await waitFor(() => aArrived);
    b.composer.prompt("Hello from chat B");
    await waitFor(() => !b.state().running && turnErrors(b).length === 1);
    releaseA();
    await waitFor(() => !a.state().running && turnErrors(a).length === 1);

    expect(turnErrors(b)).toEqual([
      expect.objectContaining({ errorKind: "rate-limit", status: 429, retryAfter: expect.any(Number) }),
    ]);
    const [failedA] = turnErrors(a);
    // Chat A's connection dropped: a network failure, with no status and no wait of chat B's.
    expect(failedA).toMatchObject({ errorKind: "network", attempts: 1, state: "failed" });
    expect(failedA).not.toHaveProperty("status");
    expect(failedA).not.toHaveProperty("retryAfter");
  });
});
