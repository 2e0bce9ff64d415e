import { useEffect, useState } from "react";
import type { ChatApi } from "../../client/chat-api";

/**
 * Whether the workspace is (the top of) a git repository, as the host's list of its worktrees says: where a
 * fork can go into a new worktree. False until the host answers, and for a folder that is none.
 */
export function useIsRepository(api: ChatApi, workspaceId: string | undefined): boolean {
  const [repository, setRepository] = useState(false);
  useEffect(() => {
    let live = true;
    setRepository(false);
    if (!workspaceId) return;
    api.listWorktrees({ workspaceId }).then(
      () => live && setRepository(true),
      () => live && setRepository(false),
    );
    return () => {
      live = false;
    };
  }, [api, workspaceId]);
  return repository;
}
