import { vi } from "vitest";
import type { CommandView } from "../../src/shared/commands";
import { DESK_METHODS, type DeskApi } from "../../src/shared/desk-api";
import type { HostState, SessionState } from "../../src/shared/host-state";
import type { ModelsState } from "../../src/shared/models";

/** A workspace the tests open. */
export const repo = { path: "/home/ada/repo", name: "repo" };

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

/** A DeskApi whose every call is a spy resolving to undefined or success (override the ones a test needs). */
export function fakeApi(
  overrides: Partial<DeskApi> = {},
): DeskApi & Record<string, ReturnType<typeof vi.fn>> {
  const calls: Record<string, ReturnType<typeof vi.fn>> = Object.fromEntries(
    DESK_METHODS.map((method) => [method, vi.fn(async () => undefined)]),
  );
  // Calls whose result the page reads: what the host answers when it accepts them.
  calls.setAllowedHosts = vi.fn(async () => ({ saved: true }));
  calls.addAllowedHosts = vi.fn(async () => ({ saved: true }));
  return { ...calls, onHostEvent: vi.fn(() => () => {}), ...overrides } as unknown as DeskApi &
    Record<string, ReturnType<typeof vi.fn>>;
}
