import type { DeskMethod, DeskParams, DeskResult } from "./desk-api";

// Type-only imports: the benches run the harness's copy of this binding under plain Node, which strips types
// but cannot resolve the contract's extensionless imports.

/** The calls whose parameters name a chat. */
export const CHAT_CALLS = [
  "closeChat",
  "prompt",
  "removeQueued",
  "compact",
  "listSlashCommands",
  "reconnectMcpServer",
  "signInMcpServer",
  "pasteMcpRedirectUrl",
  "cancelMcpSignIn",
  "signOutMcpServer",
  "findFiles",
  "messageImages",
  "renameChat",
  "stop",
  "cancelCommand",
  "commandOutput",
  "readFullOutput",
  "setModel",
  "setThinkingLevel",
  "addRule",
  "updateRule",
  "removeRule",
  "keepRunning",
  "commandDiff",
  "undoCommand",
  "previewRestore",
  "restoreWorkspace",
  "rewindPreview",
  "rewind",
  "rewindUndo",
  "forkChat",
  "branchPreview",
  "switchBranch",
  "reviewWorktree",
  "bringIntoWorkspace",
  "keepBranch",
  "discardWorktree",
] as const satisfies readonly DeskMethod[];

/** The calls whose parameters name a workspace. */
export const WORKSPACE_CALLS = [
  "listSessions",
  "newSession",
  "listWorktrees",
  "worktreeSettings",
  "setWorktreeSettings",
  "openSession",
  "closeWorkspace",
  "setSandbox",
  "setAllowedHosts",
  "addAllowedHosts",
  "setBackgroundCap",
  "setMcpServerEnabled",
  "setScriptsEnabled",
  "setResourceLimits",
  "getHistory",
] as const satisfies readonly DeskMethod[];

type Naming<K extends string> = {
  [M in DeskMethod]: DeskParams<M> extends Record<K, string> ? M : never;
}[DeskMethod];
// A call that comes to name a chat or a workspace and is not listed above fails to compile here.
const chatCallsListed: Exclude<Naming<"chatId">, (typeof CHAT_CALLS)[number]> extends never ? true : false =
  true;
const workspaceCallsListed: Exclude<Naming<"workspaceId">, (typeof WORKSPACE_CALLS)[number]> extends never
  ? true
  : false = true;
void chatCallsListed;
void workspaceCallsListed;

/** A call's parameters with the chat's and workspace's ids left to the binding (they may still be given). */
export type Unbound<P> = P extends object
  ? Omit<P, "chatId" | "workspaceId"> & { chatId?: string; workspaceId?: string }
  : P;

/** One call, bound: its parameters optional when nothing is left to give. */
type BoundCall<M extends DeskMethod> =
  undefined extends DeskParams<M>
    ? (params?: Unbound<DeskParams<M>>) => Promise<DeskResult<M>>
    : // biome-ignore lint/complexity/noBannedTypes: "nothing left to give" is exactly the empty object type.
      {} extends Unbound<DeskParams<M>>
      ? (params?: Unbound<DeskParams<M>>) => Promise<DeskResult<M>>
      : (params: Unbound<DeskParams<M>>) => Promise<DeskResult<M>>;

/** Every call, bound to one chat and its workspace: their ids are filled in unless given. */
export type BoundCalls = { [M in DeskMethod]: BoundCall<M> };

/** The ids a binding fills in, read at each call. */
export interface ChatIds {
  /** The chat's id, for chat calls. */
  chatId?: string;
  /** Its workspace's id, for workspace calls. */
  workspaceId?: string;
}

/**
 * Calls bound to a chat: a chat call gets `chatId`, a workspace call `workspaceId`, from `ids` at the moment
 * of the call (synchronously, so calls sent one after the other keep their order).
 */
export function bindCalls(
  call: (method: DeskMethod, params: object | undefined) => Promise<unknown>,
  ids: () => ChatIds,
): BoundCalls {
  const chatCall = new Set<string>(CHAT_CALLS);
  const workspaceCall = new Set<string>(WORKSPACE_CALLS);
  const bound = (method: DeskMethod, params?: object): Promise<unknown> => {
    if (chatCall.has(method)) return call(method, { chatId: ids().chatId ?? "", ...params });
    if (workspaceCall.has(method)) return call(method, { workspaceId: ids().workspaceId ?? "", ...params });
    return call(method, params);
  };
  return new Proxy({} as BoundCalls, {
    get: (_, method) => (params?: object) => bound(method as DeskMethod, params),
  });
}
