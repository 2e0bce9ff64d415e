import { useState } from "react";
import {
  IMAGE_TYPES,
  type ImageType,
  MAX_IMAGE_BYTES,
  MAX_IMAGES,
  type PromptImage,
} from "../../../../shared/images";
import { useT } from "../../i18n/i18n";

/** An image attached to the message being written. */
export interface Attachment extends PromptImage {
  /** Its file's name, or what the clipboard called it. */
  name: string;
  /** Its size in bytes. */
  bytes: number;
}

/** The chat's model, as far as images go: its name, and whether it reads them. */
export interface ImageModel {
  name: string;
  images: boolean;
}

/**
 * The images attached to the message being written (pasted or dropped), each checked as it comes: a type
 * Pi's providers take, within the count and size bound, and a model that reads images (named when it does
 * not). What is refused is said, and nothing attached before is lost.
 */
export function useAttachments(model: ImageModel | undefined) {
  const t = useT();
  const [attached, setAttached] = useState<Attachment[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  const add = async (files: readonly File[]) => {
    setProblem(null);
    if (model && !model.images) return setProblem(t.chat.imagesNotRead(model.name));
    const taken: Attachment[] = [];
    let bytes = attached.reduce((sum, one) => sum + one.bytes, 0);
    for (const file of files) {
      if (!IMAGE_TYPES.includes(file.type as ImageType)) return setProblem(t.chat.imageType(file.name));
      if (attached.length + taken.length >= MAX_IMAGES) return setProblem(t.chat.imagesTooMany(MAX_IMAGES));
      bytes += file.size;
      if (bytes > MAX_IMAGE_BYTES) return setProblem(t.chat.imagesTooBig(MAX_IMAGE_BYTES / 1024 / 1024));
      const data = await base64Of(file);
      taken.push({ name: file.name, bytes: file.size, mimeType: file.type as ImageType, data });
      setAttached((now) => [...now, taken[taken.length - 1] as Attachment]);
    }
  };
  return {
    attached,
    problem,
    add: (files: readonly File[]) => void add(files).catch(() => setProblem(t.chat.imageUnreadable)),
    remove: (index: number) => setAttached((now) => now.filter((_, at) => at !== index)),
    clear: () => setAttached([]),
  };
}

/** A file's bytes in base64. */
function base64Of(file: File): Promise<string> {
  return new Promise((done, fail) => {
    const reader = new FileReader();
    reader.onload = () => done(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => fail(reader.error);
    reader.readAsDataURL(file);
  });
}

/** A data URL showing an image (the page's policy allows `data:` images and nothing remote). */
export const imageUrl = (image: PromptImage) => `data:${image.mimeType};base64,${image.data}`;
