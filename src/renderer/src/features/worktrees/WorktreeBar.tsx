import { useState } from "react";
import type { ChatSummary } from "../../../../shared/host-state";
import type { ChatApi } from "../../client/chat-api";
import { useT } from "../../i18n/i18n";
import { ReviewView } from "./ReviewView";

/**
 * Above a worktree chat's conversation: which branch it works on, and its review (what it changed against its
 * base, and the ways to end its work: bring it into the workspace, keep the branch, discard).
 */
export function WorktreeBar({ chat, api }: { chat: ChatSummary; api: ChatApi }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const branch = chat.branch ?? "";
  return (
    <div className="worktree-bar" data-testid="worktree-bar">
      <div className="worktree-bar-line">
        <span className="muted" title={chat.folder}>
          {t.worktrees.bar(branch)}
        </span>
        <button
          type="button"
          className="small"
          aria-expanded={open}
          onClick={() => setOpen((shown) => !shown)}
          data-testid="review-button"
        >
          {open ? t.worktrees.hideReview : t.worktrees.review}
        </button>
      </div>
      {/* Keyed by chat: another chat's review is never shown with this one's buttons. */}
      {open && <ReviewView key={chat.id} branch={branch} api={api} />}
    </div>
  );
}
