/** The image types a message may carry: what Pi's providers take. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** One of them. */
export type ImageType = (typeof IMAGE_TYPES)[number];

/** How many images one message may carry. */
export const MAX_IMAGES = 8;

/**
 * The most bytes a message's images may have together, as attached (the host then fits each to the model,
 * as Pi's read tool does). Base64 makes them a third larger, and with the text they stay within the
 * browser host's 8 MiB message.
 */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** An image attached to the person's message: its type and its bytes in base64. */
export interface PromptImage {
  mimeType: ImageType;
  data: string;
}
