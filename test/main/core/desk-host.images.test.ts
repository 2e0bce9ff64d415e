import { describe, expect, it } from "vitest";
import { calls, startHost, waitFor } from "./host-harness";

/** A 1x1 PNG, as a screenshot pasted in would arrive: its bytes in base64. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("the host: images with the person's message", () => {
  it("reach the model as image parts, are counted on the message and given back by its entry", async () => {
    const { host } = await startHost([[{ type: "text", text: "A red dot." }]]);
    await calls(host).prompt({ text: "What is this?", images: [{ mimeType: "image/png", data: PNG }] });
    const asked = await waitFor(() => host.agentOf()?.messages.find((message) => message.role === "user"));
    expect(asked.content).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image", mimeType: "image/png", data: PNG },
    ]);
    const item = await waitFor(() => {
      const found = host.state().session?.transcript.find((entry) => entry.kind === "user");
      return found?.kind === "user" && found.entryId ? found : undefined;
    });
    expect(item.images).toBe(1);
    expect(await calls(host).messageImages({ entryId: item.entryId as string })).toEqual([
      { mimeType: "image/png", data: PNG },
    ]);
  });

  it("refuses what is not the image it says, naming which, and sends nothing", async () => {
    const { host } = await startHost([[{ type: "text", text: "never" }]]);
    const notPng = Buffer.from("this is text, not a picture").toString("base64");
    await expect(
      calls(host).prompt({
        text: "Look",
        images: [
          { mimeType: "image/png", data: PNG },
          { mimeType: "image/png", data: notPng },
        ],
      }),
    ).rejects.toThrow(/Image 2 could not be read as PNG/);
    expect(host.agentOf()?.messages ?? []).toEqual([]);
  });
});
