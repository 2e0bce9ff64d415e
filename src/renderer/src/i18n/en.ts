import type { ArgumentEffect } from "../../../shared/rules";
import { changesEn } from "./changes.en";
import { commandCardEn, exceptEn } from "./command-card.en";
import { composerEn } from "./composer.en";
import { editsEn } from "./edits.en";
import { layoutEn } from "./layout.en";
import { mcpEn } from "./mcp.en";
import { networkEn } from "./network.en";
import { editRefusalTextEn, refusalTextEn } from "./refusals.en";
import { resourcesEn } from "./resources.en";
import { rewindEn } from "./rewind.en";
import { riskTextEn } from "./risks.en";
import { worktreesEn } from "./worktrees.en";

/**
 * The English messages, the source every other language follows. A message is a string, or a function
 * when it holds values; another language must give the same keys with the same parameters, which the
 * `Messages` type checks at compile time.
 */
export const en = {
  appName: "Pi Desk",
  loading: "Loading…",
  connection: { connecting: "Connecting…", connected: "Connected", disconnected: "Disconnected" },
  nav: { label: "Views", chat: "Chat", history: "History", settings: "Settings" },

  workspace: {
    heading: "Workspace",
    noneChoosable: "No folder is open. Open the repository you want to work on.",
    noneFixed: "No folder is open. Start the host with --workspace <folder>.",
    openAnother: "Open another folder…",
    open: "Open folder…",
  },
  sessions: {
    inWorktree: (path: string) => `Ran in the worktree ${path}: it reopens there`,
    detached: "detached",
    heading: "Past chats",
    none: "No earlier chats in this workspace.",
    pastIn: (workspace: string) => `Past chats in ${workspace}`,
    showAll: (count: number) => `Show all ${count}`,
    messages: (count: number) => (count === 1 ? "1 message" : `${count} messages`),
    loadFailed: (reason: string) => `Could not list the past chats: ${reason}`,
    reload: "Refresh the list",
  },

  chats: {
    heading: "Chats",
    newChat: "New chat",
    here: (workspace: string) => `In ${workspace}`,
    untitled: "New chat",
    notStarted: "no message yet",
    activity: { working: "working", waiting: "waiting for you", idle: "finished", failed: "failed" },
    waiting: (count: number) => `${count} waiting`,
    close: "Close chat",
    closeWorking: (title: string) =>
      `"${title}" is still working or waiting for you. Close it and stop what it runs?`,
    open: (title: string) => `Open chat: ${title}`,
    closeWorkspace: (workspace: string) => `Close the workspace ${workspace}`,
    newChatIn: (workspace: string) => `New chat in ${workspace}`,
    closeWorkspaceBusy: (workspace: string, busy: number) =>
      `${busy === 1 ? "A chat" : `${busy} chats`} in ${workspace} ${busy === 1 ? "is" : "are"} still working or waiting for you. Close the workspace and stop what ${busy === 1 ? "it runs" : "they run"}?`,
  },

  chat: {
    noWorkspace: "Open a workspace to chat with the agent about it.",
    noSession: "No chat is open. Start a new one, or reopen a past chat from the list.",
    empty: "Ask the agent about this repository. It asks you before it runs any command.",
    you: "You",
    agent: "Pi",
    thinking: "Thinking",
    streaming: "Writing…",
    newBelow: "New messages below",
    ...composerEn,
    stop: "Stop",
    stopHint: "Stop the agent: pending commands are cancelled and running ones killed.",
    working: "The agent is working…",
    sendFailed: (reason: string) => `The message was not sent: ${reason}`,
    stopFailed: (reason: string) => `Could not stop the agent: ${reason}`,
    copyCode: "Copy",
    copied: "Copied",
    copyCodeLabel: (language: string) => `Copy this ${language} code`,
    remoteImage: (alt: string, host: string) =>
      alt
        ? `Image “${alt}” on ${host}, not loaded: opens in your browser`
        : `Image on ${host}, not loaded: opens in your browser`,
  },
  turnError: {
    title: {
      auth: "The provider refused the API key",
      model: "The provider does not know this model",
      "rate-limit": "The provider's rate limit was reached",
      provider: "The provider failed on its side",
      network: "The provider could not be reached",
      other: "The model's provider returned an error",
    },
    advice: {
      auth: "Check the key for this provider: set it again under Set up models, in the environment, or in Pi's auth.json.",
      model:
        "Check the model name: pick another model, or correct its id in Pi's models.json to one the provider serves.",
      "rate-limit": "Wait a moment before sending again, or pick another model.",
      provider: "Nothing is wrong with your key or settings. Try again later, or pick another model.",
      network:
        "Check the network connection, and that the provider's baseUrl in Pi's models.json is right and its server is running.",
      other: "Try again; if it keeps failing, check the model's settings.",
    },
    status: (status: number) => `HTTP ${status}`,
    retrying: (retry: number, of: number) => `Retrying (${retry} of ${of})…`,
    retryingIn: (seconds: number) => `next request in ${seconds} s`,
    failedAfter: (attempts: number) => (attempts === 1 ? "Failed." : `Failed after ${attempts} requests.`),
    recovered: (attempts: number) => `Answered on request ${attempts}.`,
    waitSeconds: (seconds: number) => `The provider asks to wait ${seconds} s before trying again.`,
    waitMinutes: (minutes: number) =>
      `The provider asks to wait ${minutes === 1 ? "a minute" : `${minutes} minutes`} before trying again.`,
    waitOver: "The wait the provider asked for is over: you can send again.",
    details: "Details from the provider",
  },
  attention: {
    title: "Pi Desk: a command waits for your approval",
    editTitle: "Pi Desk: a file edit waits for your approval",
    toggle: "Notify me when a command waits for approval while Pi Desk is not in front",
    allow: "Allow notifications",
    permission: {
      default: "This browser has not been allowed to show notifications yet.",
      granted: "This browser shows them.",
      denied:
        "This browser blocks notifications from this page: allow them in the browser's site settings, then reload.",
      unsupported: "This browser cannot show notifications.",
    },
    changeFailed: (reason: string) => `Could not change notifications: ${reason}`,
  },
  tool: {
    running: "running",
    done: "done",
    failed: "failed",
  },

  models: {
    model: "Model",
    thinking: "Thinking level",
    noKey: "no key",
    none: "No model",
    setup: "Set up models",
    setupHeading: "Set up a model",
    setupIntro:
      "Pi needs a model with a key before it can answer. Give a provider's API key here, or configure models for Pi itself:",
    setupFile: "models and providers of your own (a local server, a proxy), read when Pi Desk starts.",
    setupEnv:
      "or set the provider's variable (e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY) before starting Pi Desk.",
    keyLabel: (provider: string) => `API key for ${provider}`,
    providerLabel: "Provider id (as Pi names it)",
    keySave: "Save key",
    keySaved: (provider: string) => `Key saved for ${provider}.`,
    keyFailed: (reason: string) => `The key was not saved: ${reason}`,
    hasKey: "configured",
    changeFailed: (reason: string) => `Could not change the model: ${reason}`,
    unavailable: {
      chat: (model: string) =>
        `This chat used ${model}, which is gone (no longer among Pi's models, or its provider has no key). Pick a model to go on.`,
      workspace: (model: string) =>
        `This workspace's model ${model} is gone (no longer among Pi's models, or its provider has no key). Pick a model to go on.`,
    },
    levels: {
      off: "off",
      minimal: "minimal",
      low: "low",
      medium: "medium",
      high: "high",
      xhigh: "extra high",
      max: "maximum",
    },
  },

  command: commandCardEn,
  changes: changesEn,
  rewind: rewindEn,
  worktrees: worktreesEn,
  edits: editsEn,
  // Issue 36 (MCP servers behind the gate): its own block.
  mcp: mcpEn,
  layout: layoutEn,
  risk: riskTextEn,
  refusal: refusalTextEn,
  editRefusal: editRefusalTextEn,
  network: networkEn,
  resources: resourcesEn,
  fullOutput: {
    title: "Full output",
    close: "Close",
    loading: "Loading…",
    loadMore: "Load more",
    progress: (shown: string, total: string) => `${shown} of ${total}`,
    failed: (reason: string) => `Could not read the output: ${reason}`,
  },

  settings: {
    heading: "Settings",
    notifications: "Notifications",
    language: "Language",
    languageNames: { en: "English", "zh-CN": "简体中文" },
    rules: "Rules",
    rulesIntro:
      "Rules decide commands and file edits without asking you. A deny rule wins over an allow rule. An edit a rule allows still shows its card, with the diff and Undo; edits to protected files (.env*, .pi/, .github/workflows/, .husky/) always ask, and .git/ is never edited.",
    noRules: "No rules yet. “Always allow…” on a command card makes one.",
    effect: "Effect",
    effects: { allow: "Allow", deny: "Deny" },
    match: "Match",
    matches: {
      exact: "Exact command",
      prefix: "Starts with",
      file: "Edits to the file",
      "any-file": "Every file edit",
    },
    pattern: "Command or first words",
    scope: "Scope",
    scopes: { session: "This chat", workspace: "This workspace" },
    addRule: "Add rule",
    saveRule: "Save",
    editRule: "Edit",
    removeRule: "Remove",
    cancelEdit: "Cancel",
    ruleFailed: (reason: string) => `The rule was not saved: ${reason}`,
    ruleNarrowed: (except: readonly ArgumentEffect[]) =>
      `Narrower than before: saved before Pi Desk's argument table, it no longer covers arguments that ${exceptEn(except)}. Edit and save it to keep it as it is now.`,
    patternEmpty: "Give the command, or its first words.",
    limits: "Limits in force",
    limitsNone: "Open a workspace to see the limits its commands run under.",
    allowlist: "Programs that may run",
    unrestricted: "Any program (no allowlist)",
    defaultTimeout: "Default timeout",
    maxTimeout: "Longest timeout",
    sandbox: "Sandbox",
    sandboxNone: "This platform has no sandbox Pi Desk can use: commands run with your own rights.",
    sandboxKind: (kind: string) =>
      `Commands can run in an OS sandbox (${kind}): the workspace is writable, your home is hidden.`,
    sandboxUnavailable: (kind: string, problem: string) =>
      `The sandbox (${kind}) does not work on this machine: ${problem}`,
    sandboxEnabled: "Run this workspace's commands in the sandbox",
    sandboxNetwork: "Let sandboxed commands use the network",
    sandboxFailed: (reason: string) => `The sandbox setting was not changed: ${reason}`,
    environment: "Variables passed to commands (names only)",
    savedOutputs: "Saved outputs",
    savedOutputsUse: (used: string, quota: string) => `${used} of ${quota}`,
    savedOutputsHint: (budget: string) =>
      `The full output of a long command is kept in Pi Desk's data folder: at most ${budget} per command (past it the middle is left out), the oldest removed first when the workspace's outputs need more room.`,
    changes: "What commands change",
    changesOn: (used: string, budget: string) => `Recorded, for undo: ${used} of ${budget} in use`,
    changesCopy: (copy: string, history: string) =>
      `${copy} of it is the copy of the workspace's current files, kept whatever the budget; the history of commands may take ${history} on top of it.`,
    changesOff: (reason: string) => `Not recorded: ${reason}`,
    changesPreparing: "Taking the first snapshot of the workspace…",
    changesHint: (size: string) =>
      `Before and after every command, Pi Desk records the workspace's files in its data folder (never in the workspace's .git), so each card shows what its command changed and can undo it. Files your .gitignore skips are not recorded, nor these folders, nor files over ${size} (listed by size only). The oldest records are dropped past the budget.`,
    models: "Models and keys",
    about: "About",
    version: (version: string, shell: string) => `Pi Desk ${version}, ${shell} host`,
  },
  history: {
    heading: "Command history",
    search: "Search commands, reasons and rules",
    none: "No decisions recorded yet.",
    noMatch: "Nothing matches.",
    failed: (reason: string) => `Could not read the history: ${reason}`,
    events: {
      approved: "approved",
      denied: "denied",
      refused: "refused",
      cancelled: "cancelled",
      finished: "finished",
      started: "started in the background",
      stopped: "stopped",
      exited: "exited",
      undone: "changes undone",
      restored: "workspace restored to before it",
      narrowed: "a saved rule no longer covered it",
      "host-allowed": "host reached",
      "host-refused": "host refused",
      rewound: "chat rewound to before this message",
      "branch-switched": "chat switched to the branch of this message",
      "went-back": "chat taken back to where it was before a rewind",
    },
    by: {
      person: "by you",
      rule: "by a rule",
      policy: "by the policy",
      stop: "by Stop",
      host: "by the host",
      agent: "by the agent",
      cap: "at the time cap",
      "chat-closed": "as its chat closed",
      quit: "as the app quit",
    },
    exit: (code: number) => `exit ${code}`,
    rule: (rule: string) => `rule: ${rule}`,
    script: "The script, as decided",
    rewindFiles: (restored: number, kept: number, notRecorded: number) =>
      `Files: ${restored} put back, ${kept} kept as changed since, ${notRecorded} not recorded`,
  },
  background: {
    toggle: "Keep it running in the background",
    explain: (cap: string) =>
      `It keeps running until you stop it, the chat closes or the app quits, and for ${cap} at most.`,
    panelButton: (count: number) => `Running (${count})`,
    panelHeading: "Running in the background",
    panelEmpty: "Nothing runs in the background.",
    close: "Close",
    status: { running: "running", stopped: "stopped", exited: "exited" },
    runningFor: (time: string) => `for ${time}`,
    ran: (time: string) => `ran ${time}`,
    stoppedBy: {
      person: "stopped by you",
      agent: "stopped by the agent",
      cap: "stopped at the time cap",
      "chat-closed": "stopped as its chat closed",
      quit: "stopped as the app quit",
    },
    exitedWith: (code: string) => `exited with code ${code}`,
    ports: "Listening on",
    portLink: (port: number) => `Open http://127.0.0.1:${port}`,
    sandboxNoNetwork:
      "It runs in the sandbox without network, so a server it starts cannot be reached from this machine. Let it use the network to reach it.",
    stop: "Stop",
    stopping: "Stopping…",
    stopFailed: (reason: string) => `Could not stop it: ${reason}`,
    keepRunning: "Keep running",
    keepRunningHint: "Move it to the background: it will not be stopped at its timeout.",
    keepRunningFailed: (reason: string) => `Could not move it to the background: ${reason}`,
    cap: "Background commands stop after",
    capHours: (hours: number) => (hours === 1 ? "1 hour" : `${hours} hours`),
    capFailed: (reason: string) => `The time cap was not changed: ${reason}`,
  },
  title: {
    base: "Pi Desk",
    waiting: (count: number) => `(${count}) `,
  },
};

type Widen<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : { [K in keyof T]: Widen<T[K]> };

/** The shape every language's messages have. */
export type Messages = Widen<typeof en>;
