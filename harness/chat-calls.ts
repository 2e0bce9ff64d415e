import { type BoundCalls, bindCalls, type ChatIds } from "../src/shared/chat-binding.ts";
import type { DeskMethod } from "../src/shared/desk-api";
import type { HostState } from "../src/shared/host-state";

/** Every call, bound to one chat (see `bindCalls`). */
export type ChatCalls = BoundCalls;

/** Anything that takes calls by name and tells its state: a host's handlers, a socket to the browser host. */
export interface CallTarget {
  /** Makes one call. */
  call(method: DeskMethod, params: unknown): Promise<unknown>;
  /** The state, holding the chat last opened. */
  state(): Promise<HostState> | HostState;
}

/**
 * Calls bound to a chat, for tests and benches that drive one chat (or one at a time): each call names the
 * chat given, else the one the host's state holds in full at the moment of the call (the one last opened),
 * and its workspace.
 */
export function chatCalls(target: CallTarget, chatId?: string): ChatCalls {
  const idsOf = (state: HostState): ChatIds => {
    const chat = state.chats.find((open) => open.id === (chatId ?? state.chatId));
    return { chatId: chat?.id ?? "no-chat", workspaceId: chat?.workspaceId ?? state.workspace?.id ?? "none" };
  };
  return new Proxy({} as ChatCalls, {
    get: (_, name) => (params?: object) => {
      const method = name as DeskMethod;
      if (method === "getState") return target.call(method, chatId ? { chatId, ...params } : params);
      const send = (ids: ChatIds) =>
        (
          bindCalls(
            (m, p) => target.call(m, p),
            () => ids,
          )[method] as (p?: object) => Promise<unknown>
        )(params);
      // In the same tick when the state is at hand: calls sent at once (Stop + approve) keep their order.
      const state = target.state();
      return state instanceof Promise ? state.then((s) => send(idsOf(s))) : send(idsOf(state));
    },
  });
}

/** A host's own handlers as a call target (in-process tests). */
export function hostTarget(host: {
  handlers: { [M in DeskMethod]: (params: never) => Promise<unknown> };
  state(): HostState;
}): CallTarget {
  return {
    call: (method, params) => (host.handlers[method] as (params: unknown) => Promise<unknown>)(params),
    state: () => host.state(),
  };
}
