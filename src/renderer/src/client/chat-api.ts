import { type BoundCalls, bindCalls, type ChatIds } from "../../../shared/chat-binding";
import type { DeskApi, DeskMethod } from "../../../shared/desk-api";

/**
 * The calls as a chat's part of the page makes them: bound to that chat and its workspace, so a card, the
 * composer or Settings never names them (and cannot name another chat's by mistake).
 */
export type ChatApi = BoundCalls & Pick<DeskApi, "onHostEvent">;

/** Binds the API to a chat and its workspace. */
export function bindChat(api: DeskApi, ids: ChatIds): ChatApi {
  const calls = bindCalls(
    (method: DeskMethod, params) => (api[method] as (params?: object) => Promise<unknown>)(params),
    () => ids,
  );
  return new Proxy(calls as ChatApi, {
    get: (target, method) =>
      method === "onHostEvent" ? api.onHostEvent.bind(api) : target[method as DeskMethod],
  });
}
