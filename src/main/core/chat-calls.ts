import type { WorkspaceSession } from "../agent/workspace-session";
import type { DeskHandlers } from "./desk-handlers";

/** The calls that act on one open chat and nothing else. */
type ForwardedCall =
  | "prompt"
  | "compact"
  | "listSlashCommands"
  | "reconnectMcpServer"
  | "signInMcpServer"
  | "pasteMcpRedirectUrl"
  | "cancelMcpSignIn"
  | "signOutMcpServer"
  | "findFiles"
  | "messageImages"
  | "renameChat"
  | "removeQueued"
  | "stop"
  | "cancelCommand"
  | "commandOutput"
  | "readFullOutput"
  | "addRule"
  | "updateRule"
  | "removeRule"
  | "keepRunning"
  | "commandDiff"
  | "undoCommand"
  | "previewRestore"
  | "restoreWorkspace"
  | "rewindPreview"
  | "rewind"
  | "rewindUndo"
  | "branchPreview"
  | "switchBranch";

/** Those calls: each finds its chat (`chatOf` refuses a chat that is not open) and hands the call on. */
export function chatCalls(chatOf: (chatId: string) => WorkspaceSession): Pick<DeskHandlers, ForwardedCall> {
  return {
    prompt: async ({ chatId, text, mode, images }) => chatOf(chatId).composer.prompt(text, mode, images),
    messageImages: async ({ chatId, entryId }) => chatOf(chatId).composer.messageImages(entryId),
    renameChat: async ({ chatId, name }) => chatOf(chatId).composer.rename(name),
    compact: async ({ chatId, instructions }) => chatOf(chatId).composer.compact(instructions),
    listSlashCommands: async ({ chatId }) => chatOf(chatId).composer.slashCommands(),
    reconnectMcpServer: async ({ chatId, name }) => chatOf(chatId).mcpServers.reconnect(name),
    signInMcpServer: async ({ chatId, name }) => chatOf(chatId).mcpServers.signIn(name),
    pasteMcpRedirectUrl: async ({ chatId, name, url }) => chatOf(chatId).mcpServers.paste(name, url),
    cancelMcpSignIn: async ({ chatId, name }) => chatOf(chatId).mcpServers.cancelSignIn(name),
    signOutMcpServer: async ({ chatId, name }) => chatOf(chatId).mcpServers.signOut(name),
    findFiles: async ({ chatId, query, fresh }) => chatOf(chatId).files.find(query, fresh),
    removeQueued: async ({ chatId, mode, index }) => chatOf(chatId).composer.removeQueued(mode, index),
    stop: async ({ chatId }) => chatOf(chatId).stop(),
    cancelCommand: async ({ chatId, commandId }) => chatOf(chatId).cancelCommand(commandId),
    commandOutput: async ({ chatId, commandId }) => chatOf(chatId).commandOutput(commandId),
    readFullOutput: async ({ chatId, commandId, offset }) => chatOf(chatId).readFullOutput(commandId, offset),
    addRule: async ({ chatId, ...draft }) => chatOf(chatId).gate.addRule(draft),
    updateRule: async ({ chatId, id, rule }) => chatOf(chatId).gate.updateRule(id, rule),
    removeRule: async ({ chatId, id }) => chatOf(chatId).gate.removeRule(id),
    keepRunning: async ({ chatId, commandId }) => chatOf(chatId).keepRunning(commandId),
    commandDiff: async ({ chatId, commandId, path }) => chatOf(chatId).changes.diff(commandId, path),
    undoCommand: async ({ chatId, commandId, undoAnyway }) =>
      chatOf(chatId).changes.undo(commandId, undoAnyway),
    previewRestore: async ({ chatId, commandId }) => chatOf(chatId).changes.previewRestore(commandId),
    restoreWorkspace: async ({ chatId, previewId, undoAnyway }) =>
      chatOf(chatId).changes.restore(previewId, undoAnyway),
    rewindPreview: async ({ chatId, entryId }) => chatOf(chatId).rewind.preview(entryId),
    rewind: async ({ chatId, entryId, text }) => chatOf(chatId).rewindTo(entryId, text),
    rewindUndo: async ({ chatId }) => chatOf(chatId).rewind.back(),
    branchPreview: async ({ chatId, entryId }) => chatOf(chatId).rewind.previewSwitch(entryId),
    switchBranch: async ({ chatId, entryId }) => chatOf(chatId).rewind.switchTo(entryId),
  };
}
