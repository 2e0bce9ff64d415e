import type { Api, Model } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { imagesForModel } from "../../../src/main/agent/prompt-images";
import { MAX_IMAGE_BYTES } from "../../../src/shared/images";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const model = (input: ("text" | "image")[]) => ({ name: "Local Two", input }) as unknown as Model<Api>;

describe("a message's images for the model", () => {
  it("are refused for a model that does not read images, naming it, whatever a page let through", async () => {
    await expect(imagesForModel([{ mimeType: "image/png", data: PNG }], model(["text"]))).rejects.toThrow(
      "Local Two does not read images. Pick a model that does, or send the message without the images.",
    );
    await expect(imagesForModel([{ mimeType: "image/png", data: PNG }], undefined)).rejects.toThrow(
      /No model/,
    );
  });

  it("are refused beyond the size bound together, with both sizes said", async () => {
    const three = Buffer.alloc(3 * 1024 * 1024).toString("base64");
    await expect(
      imagesForModel(
        [
          { mimeType: "image/png", data: three },
          { mimeType: "image/png", data: three },
        ],
        model(["text", "image"]),
      ),
    ).rejects.toThrow(
      `The images come to 6.0 MB; a message may carry ${MAX_IMAGE_BYTES / 1024 / 1024}.0 MB. Send fewer or smaller ones.`,
    );
  });

  it("pass as Pi's image parts when they fit", async () => {
    expect(await imagesForModel([{ mimeType: "image/png", data: PNG }], model(["text", "image"]))).toEqual([
      { type: "image", mimeType: "image/png", data: PNG },
    ]);
  });
});
