import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { calls, settled, startHost, waitFor } from "./host-harness";
import { agentFolder, writeUserMcp } from "./mcp-harness";

/** A stdio server whose `media` tool answers with text, a sound and a resource link (test/fixtures). */
const MEDIA_SERVER = join(
  dirname(new URL(import.meta.url).pathname),
  "..",
  "..",
  "fixtures",
  "mcp-media-server.mjs",
);

afterEach(() => {
  rmSync(join(agentFolder(), "mcp.json"), { force: true });
});

describe("the host: an MCP result's sounds and resource links", () => {
  it("keeps the server's audio and resource links for the card, where Pi gives the model only a line for each", async () => {
    writeUserMcp({ media: { command: process.execPath, args: [MEDIA_SERVER] } });
    const { host } = await startHost([
      [{ type: "toolCall", id: "m1", name: "mcp__media__media", arguments: {} }],
      [{ type: "text", text: "Done." }],
    ]);
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    await calls(host).prompt({ text: "play it" });
    const approvalId = await waitFor(() => host.state().session?.mcpCalls?.m1?.approvalId);
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await settled(host);
    const call = host.state().session?.mcpCalls?.m1;
    expect(call?.status).toBe("done");
    expect(call?.audio).toEqual([{ mimeType: "audio/wav", data: expect.stringMatching(/^UklGR/) }]);
    expect(call?.links).toEqual([
      {
        uri: "file:///reports/q3.pdf",
        name: "q3.pdf",
        title: "Third-quarter report",
        description: "The report the sound is about",
        mimeType: "application/pdf",
      },
    ]);
    // What the model read: Pi's lines, not the sound's bytes.
    expect(call?.result).toContain("Here is the sound and the report.");
    expect(call?.result).not.toContain("UklGR");
    // Reopened from Pi's session file, the card still lists the links (the sound is not kept).
    const file = await waitFor(() => host.state().session?.file);
    await calls(host, host.state().chatId as string).closeChat({});
    await calls(host).openSession({ path: file });
    expect(host.state().session?.mcpCalls?.m1?.links).toEqual(call?.links);
  });
});
