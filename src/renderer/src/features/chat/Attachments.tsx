import { memo } from "react";
import { useT } from "../../i18n/i18n";
import { type Attachment, imageUrl } from "./use-attachments";

/** The images attached to the message being written, as thumbnails, each removable before sending. */
export const Attachments = memo(function Attachments({
  attached,
  onRemove,
}: {
  attached: Attachment[];
  onRemove: (index: number) => void;
}) {
  const t = useT();
  if (attached.length === 0) return null;
  return (
    <ul className="attachments" aria-label={t.chat.attachments}>
      {attached.map((image, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same picture may be attached twice; the list only shrinks by index
        <li key={index} className="attachment" data-testid="attachment" title={image.name}>
          <img src={imageUrl(image)} alt={image.name} />
          <button
            type="button"
            className="attachment-remove"
            aria-label={t.chat.attachmentRemove(image.name)}
            onClick={() => onRemove(index)}
            data-testid="attachment-remove"
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
});
