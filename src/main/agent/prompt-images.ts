import type { Api, ImageContent, Model } from "@earendil-works/pi-ai";
import { resizeImage } from "@earendil-works/pi-coding-agent";
import { MAX_IMAGE_BYTES, type PromptImage } from "../../shared/images";
import { blocksOf } from "./message-content";

/**
 * A message's images made ready for the model: refused, saying what to do, for a model that does not read
 * images or beyond the size bound; then each fitted to the model's limits as Pi's read tool fits an image
 * (Pi's `resizeImage`: at most 2000 pixels a side and 4.5 MB), refused when it cannot be read as one.
 */
export async function imagesForModel(
  images: readonly PromptImage[],
  model: Model<Api> | undefined,
): Promise<ImageContent[]> {
  if (!model)
    throw new Error("No model is chosen for this chat. Pick one that reads images, then send again.");
  if (!model.input.includes("image")) {
    throw new Error(
      `${model.name} does not read images. Pick a model that does, or send the message without the images.`,
    );
  }
  const bytes = images.map((image) => Buffer.from(image.data, "base64"));
  const total = bytes.reduce((sum, one) => sum + one.length, 0);
  if (total > MAX_IMAGE_BYTES) {
    throw new Error(
      `The images come to ${megabytes(total)}; a message may carry ${megabytes(MAX_IMAGE_BYTES)}. Send fewer or smaller ones.`,
    );
  }
  return Promise.all(
    images.map(async (image, index) => {
      const fitted = await resizeImage(bytes[index] as Buffer, image.mimeType);
      if (!fitted) {
        throw new Error(
          `Image ${index + 1} could not be read as ${image.mimeType.slice(6).toUpperCase()}, or not made small enough for the model. Attach it again as a PNG or JPEG.`,
        );
      }
      return { type: "image" as const, data: fitted.data, mimeType: fitted.mimeType };
    }),
  );
}

/** The images of a stored message's content, as they were sent. */
export function imagesIn(content: unknown): PromptImage[] {
  return blocksOf(content)
    .filter((block) => block.type === "image")
    .map((block) => {
      const image = block as unknown as ImageContent;
      return { mimeType: image.mimeType as PromptImage["mimeType"], data: image.data };
    });
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
