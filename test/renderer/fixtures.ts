import { vi } from "vitest";
import type { ChatApi } from "../../src/renderer/src/client/chat-api";
import { awaitsPerson, editAwaitsPerson, inboxEntryId } from "../../src/shared/attention";
import type { CommandView } from "../../src/shared/commands";
import { DESK_METHODS, type DeskApi } from "../../src/shared/desk-api";
import type {
  ChatEventBody,
  FocusCommandEvent,
  HostEvent,
  HostEventBody,
  ShellEvent,
  WorkspaceEventBody,
} from "../../src/shared/host-events";
import type { ChatSummary, HostState, InboxEntry, SessionState } from "../../src/shared/host-state";
import type { ModelsState } from "../../src/shared/models";

/** A workspace the tests open. */
export const repo = { id: "w1", path: "/home/ada/repo", name: "repo" };

/** The open chat the tests show. */
export const chat1: ChatSummary = {
  id: "chat-1",
  workspaceId: "w1",
  folder: repo.path,
  worktree: false,
  title: "",
  activity: "idle",
  waiting: 0,
  lastLine: "",
  openedAt: 0,
};

/** Models with one configured choice. */
export const someModels: ModelsState = {
  options: [
    {
      provider: "anthropic",
      id: "claude-sonnet",
      name: "Claude Sonnet",
      hasKey: true,
      thinkingLevels: ["off", "low", "high"],
    },
    { provider: "openai", id: "gpt-5", name: "GPT-5", hasKey: false, thinkingLevels: ["off", "medium"] },
  ],
  current: { provider: "anthropic", id: "claude-sonnet" },
  thinkingLevel: "low",
};

/** An empty open conversation. */
export function session(overrides: Partial<SessionState> = {}): SessionState {
  return { id: "s1", running: false, transcript: [], commands: {}, edits: {}, ...overrides };
}

/** A host state with the workspace open and an empty conversation, unless told otherwise. */
export function hostState(overrides: Partial<HostState> = {}): HostState {
  return {
    seq: 0,
    workspaces: [repo],
    chats: [chat1],
    // As the host holds it: what waits for the person in the shown chat (tests of other chats give their own).
    inbox: inboxOf(overrides.session === undefined ? session() : overrides.session),
    chatId: chat1.id,
    workspace: repo,
    shell: "browser",
    canChooseWorkspace: false,
    version: "1.0.0",
    hostTime: Date.now(),
    session: session(),
    limits: {
      allowedBinaries: ["npm", "git", "ls"],
      defaultTimeoutSeconds: 60,
      maxTimeoutSeconds: 600,
      environment: ["PATH", "HOME"],
      sandbox: { kind: "bubblewrap", available: true, enabled: true, network: false, allowedHosts: [] },
      backgroundCapSeconds: 4 * 3600,
      maxBackgroundCommands: 8,
      changes: {
        state: { type: "on" },
        excludes: ["node_modules/", "dist/"],
        maxFileBytes: 16 * 1024 ** 2,
        usageBytes: 5 * 1024 ** 2,
        budgetBytes: 1024 ** 3,
      },
      savedOutputs: {
        budgetBytes: 256 * 1024 ** 2,
        quotaBytes: 2 * 1024 ** 3,
        usedBytes: 1288490189,
        files: 7,
      },
    },
    models: someModels,
    rules: [],
    notifications: true,
    ...overrides,
  };
}

/** The shown chat's commands and edits waiting for the person, as inbox entries of chat-1. */
export function inboxOf(chat: SessionState | null): InboxEntry[] {
  if (!chat) return [];
  // In the order asked: the transcript's.
  const at = (id: string) => chat.transcript.findIndex((item) => item.id === id);
  const order = (a: InboxEntry, b: InboxEntry) => at(inboxEntryId(a)) - at(inboxEntryId(b));
  return [
    ...Object.values(chat.commands)
      .filter(awaitsPerson)
      .map((command) => ({ kind: "command" as const, chatId: chat1.id, command })),
    ...Object.values(chat.edits)
      .filter(editAwaitsPerson)
      .map((edit) => ({ kind: "edit" as const, chatId: chat1.id, edit })),
  ].sort(order);
}

/** A command waiting for the person. */
export function pendingCommand(overrides: Partial<CommandView> = {}): CommandView {
  return {
    id: "call-1",
    phase: "pending",
    command: "npm test > log.txt",
    cwd: repo.path,
    timeoutSeconds: 60,
    maxTimeoutSeconds: 600,
    approvalId: "approval-1",
    parts: [{ name: "npm", text: "npm test", start: 0, end: 8 }],
    risks: [{ kind: "redirection", text: "> log.txt", start: 9, end: 18, note: "Writes to a file." }],
    output: "",
    totalBytes: 0,
    totalLines: 0,
    ...overrides,
  };
}

/** A command that is running now. */
export function runningCommand(overrides: Partial<CommandView> = {}): CommandView {
  const { approvalId: _unused, ...pending } = pendingCommand();
  return { ...pending, phase: "running", startedAt: Date.now(), decidedBy: "person", ...overrides };
}

/**
 * A DeskApi whose every call is a spy resolving to undefined or success (override the ones a test needs).
 * It stands for a chat's bound calls too: a component given it calls it as the page's chat does.
 */
export function fakeApi(
  overrides: Partial<DeskApi> = {},
): DeskApi & ChatApi & Record<string, ReturnType<typeof vi.fn>> {
  const calls: Record<string, ReturnType<typeof vi.fn>> = Object.fromEntries(
    DESK_METHODS.map((method) => [method, vi.fn(async () => undefined)]),
  );
  // Calls whose result the page reads: what the host answers when it accepts them.
  calls.setAllowedHosts = vi.fn(async () => ({ saved: true }));
  calls.addAllowedHosts = vi.fn(async () => ({ saved: true }));
  calls.stop = vi.fn(async () => ({ unsent: [] }));
  calls.worktreeSettings = vi.fn(async () => ({ keep: 5, olderThanDays: 7, first: "here", kept: [] }));
  return { ...calls, onHostEvent: vi.fn(() => () => {}), ...overrides } as unknown as DeskApi &
    ChatApi &
    Record<string, ReturnType<typeof vi.fn>>;
}

/** An event as a test writes it: without its number, and without its chat's or workspace's id. */
export type LooseEvent =
  | HostEventBody
  | ChatEventBody
  | WorkspaceEventBody
  | (Omit<FocusCommandEvent, "chatId"> & { chatId?: string })
  | ShellEvent;

/**
 * Numbers events as the host's stream does, from after `from`, each in chat-1 and its workspace unless it
 * names others; a shell's own event (a notification's click, a menu) gets no number, as from the shell.
 */
export function eventStream(from = 0): (event: LooseEvent) => HostEvent {
  let seq = from;
  return (event) => {
    if (event.type === "show-view") return event;
    if (event.type === "focus-command") return { chatId: chat1.id, ...event };
    return { chatId: chat1.id, workspaceId: repo.id, ...event, seq: ++seq } as unknown as HostEvent;
  };
}
