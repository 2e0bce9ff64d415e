import { memo, useEffect, useState } from "react";
import type { PromptImage } from "../../../../shared/images";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { imageUrl } from "./use-attachments";

/**
 * The images of one of the person's messages, asked for once the message is drawn (the transcript carries
 * only their count, so a long chat's state stays small).
 */
export const MessageImages = memo(function MessageImages({
  entryId,
  count,
  api,
}: {
  entryId: string;
  count: number;
  api: ChatApi;
}) {
  const t = useT();
  const [images, setImages] = useState<PromptImage[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    api.messageImages({ entryId }).then(
      (found) => live && setImages(found),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [api, entryId]);
  if (failed) return <p className="muted">{t.chat.imagesUnavailable(count)}</p>;
  return (
    <ul className="attachments message-images" aria-label={t.chat.attachments}>
      {(images ?? []).map((image, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a message's images never change
        <li key={index} className="attachment" data-testid="message-image">
          <img src={imageUrl(image)} alt={t.chat.imageAlt(index + 1)} />
        </li>
      ))}
    </ul>
  );
});
