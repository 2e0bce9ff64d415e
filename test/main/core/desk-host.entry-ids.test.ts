import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { TranscriptItem } from "../../../src/shared/transcript";
import { assistantSaid, calls, pendingApproval, runCommand, settled, startHost } from "./host-harness";

/** The messages' entries of Pi's session file, as Pi's own SessionManager reads them back. */
function storedMessages(file: string): { id: string; role: string }[] {
  return SessionManager.open(file)
    .getBranch()
    .flatMap((entry) => (entry.type === "message" ? [{ id: entry.id, role: entry.message.role }] : []))
    .filter((entry) => entry.role === "user" || entry.role === "assistant");
}

const messages = (transcript: TranscriptItem[]) =>
  transcript.flatMap((item) =>
    item.kind === "user" || item.kind === "assistant" ? [{ kind: item.kind, entryId: item.entryId }] : [],
  );

describe("the host: transcript entries and Pi's session tree", () => {
  it("names each message's entry in Pi's session file, live and when the chat is opened again", async () => {
    const { host } = await startHost([
      [{ type: "text", text: "First answer." }],
      [{ type: "text", text: "Second." }],
    ]);
    const chat = calls(host);
    await chat.prompt({ text: "one" });
    await assistantSaid(host, "First answer.");
    await chat.prompt({ text: "two" });
    await assistantSaid(host, "Second.");
    await settled(host);

    const file = host.agentOf()?.sessionFile as string;
    const stored = storedMessages(file);
    expect(stored.map((entry) => entry.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const expected = stored.map((entry) => ({ kind: entry.role, entryId: entry.id }));
    expect(messages(host.state().session?.transcript ?? [])).toEqual(expected);

    // Opened again in another chat of a fresh host: the same entries, read from the file.
    const workspaceId = host.state().workspace?.id as string;
    await chat.closeChat();
    const reopened = await calls(host).openSession({ workspaceId, path: file });
    expect(messages(host.state(reopened.id).session?.transcript ?? [])).toEqual(expected);
  });

  it("shows a command whose call id looks like one of the host's own entry ids", async () => {
    // Before, the host's own entries were u1, a2, ...: a call named "u1" was taken for the person's message
    // and its command never shown.
    const { host } = await startHost([[runCommand("u1", "touch x"), runCommand("a2", "touch y")]]);
    await calls(host).prompt({ text: "go" });
    await pendingApproval(host, "u1");
    const transcript = host.state().session?.transcript ?? [];
    expect(transcript.filter((item) => item.kind === "command").map((item) => item.id)).toEqual(["u1", "a2"]);
    expect(transcript[0]).toMatchObject({ kind: "user", text: "go" });
  });
});
