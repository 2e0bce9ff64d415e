import type { ChatEventBody } from "../../shared/host-events";
import type { DeskModels } from "../agent/model-runtime";
import { modelsStateOf } from "../agent/models-state";
import type { WorkspaceSession } from "../agent/workspace-session";
import type { DeskHandlers } from "./desk-handlers";

/** The calls on models: a chat's model and thinking level, and a provider's key for every chat. */
type ModelCall = "setModel" | "setThinkingLevel" | "setApiKey";

/** A chat as those calls need it. */
interface ModelChat {
  session: WorkspaceSession;
}

/** What those calls need of the host. */
export interface ModelCallsHost<Chat extends ModelChat> {
  models(): DeskModels;
  /** The open chat of that id; refuses one that is not open, saying what to do. */
  chatOf(chatId: string): Chat;
  /** Every open chat. */
  chats(): Iterable<Chat>;
  /** Sends one chat's event. */
  emitChat(chat: Chat, event: ChatEventBody): void;
  /** Keeps a provider's key for the next start (the desktop app's keychain), where the shell can. */
  saveKey(provider: string, key: string): Promise<void>;
}

/** Those calls: each changes what Pi's model runtime holds, then tells the chats that see it. */
export function modelCalls<Chat extends ModelChat>(
  host: ModelCallsHost<Chat>,
): Pick<DeskHandlers, ModelCall> {
  const told = (chat: Chat) =>
    host.emitChat(chat, { type: "models-changed", models: modelsStateOf(host.models(), chat.session) });
  return {
    setModel: async ({ chatId, provider, id }) => {
      const model = host.models().pick({ provider, id });
      if (!model) throw new Error(`There is no model "${provider}/${id}". Pick one from the list.`);
      const chat = host.chatOf(chatId);
      await chat.session.setModel(model);
      told(chat);
    },
    setThinkingLevel: async ({ chatId, level }) => {
      const chat = host.chatOf(chatId);
      await chat.session.setThinkingLevel(level);
      told(chat);
    },
    setApiKey: async ({ provider, key }) => {
      await host.models().setApiKey(provider, key.trim());
      await host.saveKey(provider, key.trim());
      for (const chat of host.chats()) told(chat);
    },
  };
}
