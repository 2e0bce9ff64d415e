import { type Static, type TSchema, Type } from "typebox";
import { BACKGROUND_CAP_RANGE } from "./commands";
import { DESK_METHODS, type DeskMethod, type DeskParams } from "./desk-api";
import { MAX_EDIT_BYTES } from "./edits";
import { IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES } from "./images";
import { THINKING_LEVELS } from "./models";

export { DESK_METHODS as deskMethods };

// The schemas every payload is checked against where it crosses into the host. They live apart from the
// contract's types so the renderer, which only needs the types, does not bundle the schema library.

/** Ids the host issued (uuids, tool call ids): short printable strings. */
const Id = Type.String({ minLength: 1, maxLength: 200, pattern: "^[\\x21-\\x7e]+$" });
/** An absolute path. */
const Path = Type.String({ minLength: 1, maxLength: 4096 });
/** A path relative to the workspace, as a change set names files. */
const WorkspacePath = Type.String({ minLength: 1, maxLength: 4096 });
/** Files the person chose to put back although they changed since (undo anyway). */
const WorkspacePaths = Type.Array(WorkspacePath, { maxItems: 100_000 });
/** No parameters: nothing may be sent. */
const NoParams = Type.Undefined();
/** A closed object: unknown keys (`__proto__` included) are refused. */
const Params = <T extends Record<string, TSchema>>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

/** An image of a message: a known type, its bytes in base64 within the images' bound (the host checks the total). */
const PromptImageSchema = Params({
  mimeType: Type.Union(IMAGE_TYPES.map((type) => Type.Literal(type))),
  data: Type.String({
    minLength: 4,
    maxLength: Math.ceil(MAX_IMAGE_BYTES / 3) * 4,
    pattern: "^[A-Za-z0-9+/]+={0,2}$",
  }),
});

/** One allowed-host entry as the person writes it (`registry.npmjs.org`, `*.example.org:8443`); the host checks its syntax. */
const HostEntry = Type.String({ minLength: 1, maxLength: 300 });
/** The most entries a list of hosts may have in one call. */
const MAX_HOST_ENTRIES = 500;

const ruleDraftFields = {
  effect: Type.Union([Type.Literal("allow"), Type.Literal("deny")]),
  match: Type.Union([
    Type.Literal("exact"),
    Type.Literal("prefix"),
    Type.Literal("file"),
    Type.Literal("any-file"),
    Type.Literal("mcp-tool"),
    Type.Literal("mcp-server"),
  ]),
  pattern: Type.String({ minLength: 1, maxLength: 10_000 }),
  scope: Type.Union([Type.Literal("session"), Type.Literal("workspace")]),
};
const RuleDraftSchema = Params(ruleDraftFields);

const DecisionSchema = Type.Union([
  Params({
    kind: Type.Literal("approve"),
    command: Type.Optional(Type.String({ minLength: 1, maxLength: 64 * 1024 })),
    timeoutSeconds: Type.Optional(Type.Number()),
    network: Type.Optional(
      Type.Union([
        Type.Boolean(),
        Params({
          mode: Type.Union([Type.Literal("off"), Type.Literal("hosts"), Type.Literal("full")]),
          grantedHosts: Type.Optional(Type.Array(HostEntry, { maxItems: MAX_HOST_ENTRIES })),
        }),
      ]),
    ),
    background: Type.Optional(Type.Boolean()),
    // A file edit's approval: the person's own version of the whole file (the host checks its bytes).
    content: Type.Optional(Type.String({ maxLength: MAX_EDIT_BYTES })),
    // An MCP call's approval: the person's own arguments (the host checks them against the tool's schema).
    arguments: Type.Optional(Type.Record(Type.String({ maxLength: 1000 }), Type.Unknown())),
  }),
  Params({ kind: Type.Literal("deny"), reason: Type.Optional(Type.String({ maxLength: 10_000 })) }),
]);

const QueueModeSchema = Type.Union([Type.Literal("steer"), Type.Literal("follow-up")]);

/** The parameter schema of every call; a method missing here cannot be called. */
export const requestSchemas = {
  getState: Type.Union([NoParams, Params({ chatId: Type.Optional(Id) })]),
  chooseWorkspace: NoParams,
  openWorkspace: Params({ path: Path }),
  listSessions: Params({ workspaceId: Id }),
  newSession: Params({
    workspaceId: Id,
    worktree: Type.Optional(
      Params({
        base: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
        name: Type.Optional(
          Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9][A-Za-z0-9._/-]*$" }),
        ),
        path: Type.Optional(Path),
      }),
    ),
  }),
  listWorktrees: Params({ workspaceId: Id }),
  worktreeSettings: Params({ workspaceId: Id }),
  setWorktreeSettings: Params({
    workspaceId: Id,
    settings: Params({
      folder: Type.Optional(Path),
      setup: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000 })),
      keep: Type.Integer({ minimum: 0, maximum: 1000 }),
      olderThanDays: Type.Integer({ minimum: 0, maximum: 3650 }),
      first: Type.Union([Type.Literal("here"), Type.Literal("worktree")]),
    }),
  }),
  reviewWorktree: Params({ chatId: Id }),
  bringIntoWorkspace: Params({ chatId: Id }),
  keepBranch: Params({ chatId: Id, message: Type.Optional(Type.String({ maxLength: 10_000 })) }),
  discardWorktree: Params({ chatId: Id }),
  openSession: Params({ workspaceId: Id, path: Path }),
  closeChat: Params({ chatId: Id }),
  closeWorkspace: Params({ workspaceId: Id }),
  prompt: Params({
    chatId: Id,
    text: Type.String({ minLength: 1, maxLength: 1024 * 1024 }),
    mode: Type.Optional(QueueModeSchema),
    images: Type.Optional(Type.Array(PromptImageSchema, { maxItems: MAX_IMAGES })),
  }),
  messageImages: Params({ chatId: Id, entryId: Id }),
  renameChat: Params({ chatId: Id, name: Type.String({ minLength: 1, maxLength: 200 }) }),
  listSlashCommands: Params({ chatId: Id }),
  reconnectMcpServer: Params({ chatId: Id, name: Type.String({ minLength: 1, maxLength: 200 }) }),
  signInMcpServer: Params({ chatId: Id, name: Type.String({ minLength: 1, maxLength: 200 }) }),
  pasteMcpRedirectUrl: Params({
    chatId: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    url: Type.String({ minLength: 1, maxLength: 8192 }),
  }),
  cancelMcpSignIn: Params({ chatId: Id, name: Type.String({ minLength: 1, maxLength: 200 }) }),
  signOutMcpServer: Params({ chatId: Id, name: Type.String({ minLength: 1, maxLength: 200 }) }),
  findFiles: Params({
    chatId: Id,
    query: Type.String({ maxLength: 4096 }),
    fresh: Type.Optional(Type.Boolean()),
  }),
  compact: Params({ chatId: Id, instructions: Type.Optional(Type.String({ maxLength: 10_000 })) }),
  removeQueued: Params({
    chatId: Id,
    mode: QueueModeSchema,
    index: Type.Integer({ minimum: 0, maximum: 10_000 }),
  }),
  stop: Params({ chatId: Id }),
  decide: Params({ approvalId: Id, decision: DecisionSchema, rule: Type.Optional(RuleDraftSchema) }),
  cancelCommand: Params({ chatId: Id, commandId: Id }),
  commandOutput: Params({ chatId: Id, commandId: Id }),
  readFullOutput: Params({ chatId: Id, commandId: Id, offset: Type.Optional(Type.Integer({ minimum: 0 })) }),
  setModel: Params({
    chatId: Id,
    provider: Type.String({ minLength: 1, maxLength: 200 }),
    id: Type.String({ minLength: 1, maxLength: 500 }),
  }),
  setThinkingLevel: Params({
    chatId: Id,
    level: Type.Union(THINKING_LEVELS.map((level) => Type.Literal(level))),
  }),
  setApiKey: Params({
    provider: Type.String({ minLength: 1, maxLength: 200 }),
    key: Type.String({ minLength: 1, maxLength: 10_000 }),
  }),
  addRule: Params({ ...ruleDraftFields, chatId: Id }),
  updateRule: Params({ chatId: Id, id: Id, rule: RuleDraftSchema }),
  removeRule: Params({ chatId: Id, id: Id }),
  setSandbox: Params({ workspaceId: Id, enabled: Type.Boolean(), network: Type.Boolean() }),
  setAllowedHosts: Params({ workspaceId: Id, hosts: Type.Array(HostEntry, { maxItems: MAX_HOST_ENTRIES }) }),
  addAllowedHosts: Params({
    workspaceId: Id,
    hosts: Type.Array(HostEntry, { minItems: 1, maxItems: MAX_HOST_ENTRIES }),
  }),
  keepRunning: Params({ chatId: Id, commandId: Id }),
  setMcpServerEnabled: Params({
    workspaceId: Id,
    name: Type.String({ minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_-]+$" }),
    enabled: Type.Boolean(),
  }),
  setScriptsEnabled: Params({ workspaceId: Id, enabled: Type.Boolean() }),
  setBackgroundCap: Params({
    workspaceId: Id,
    seconds: Type.Integer({
      minimum: BACKGROUND_CAP_RANGE.minSeconds,
      maximum: BACKGROUND_CAP_RANGE.maxSeconds,
    }),
  }),
  // Whole positive numbers only here; the host refuses ones below the smallest with a sentence saying what to set.
  setResourceLimits: Params({
    workspaceId: Id,
    memoryBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    processes: Type.Optional(Type.Integer({ minimum: 1, maximum: 4_194_304 })),
    backgroundMemoryBytes: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    backgroundProcesses: Type.Optional(Type.Integer({ minimum: 1, maximum: 4_194_304 })),
  }),
  setNotifications: Params({ enabled: Type.Boolean() }),
  getHistory: Params({
    workspaceId: Id,
    query: Type.Optional(Type.String({ maxLength: 1000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  }),
  commandDiff: Params({ chatId: Id, commandId: Id, path: WorkspacePath }),
  undoCommand: Params({ chatId: Id, commandId: Id, undoAnyway: Type.Optional(WorkspacePaths) }),
  previewRestore: Params({ chatId: Id, commandId: Id }),
  restoreWorkspace: Params({ chatId: Id, previewId: Id, undoAnyway: Type.Optional(WorkspacePaths) }),
  rewindPreview: Params({ chatId: Id, entryId: Id }),
  rewind: Params({
    chatId: Id,
    entryId: Id,
    text: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 * 1024 })),
  }),
  rewindUndo: Params({ chatId: Id }),
  forkChat: Params({
    chatId: Id,
    entryId: Id,
    where: Type.Optional(Type.Union([Type.Literal("same-folder"), Type.Literal("worktree")])),
  }),
  branchPreview: Params({ chatId: Id, entryId: Id }),
  switchBranch: Params({ chatId: Id, entryId: Id }),
} as const;

// Every schema must accept only what the contract's types say: a schema looser than DeskApi fails here.
type SchemaFits = {
  [M in DeskMethod]: Static<(typeof requestSchemas)[M]> extends DeskParams<M> ? true : M;
}[DeskMethod];
const schemasFitTheContract: SchemaFits = true;
void schemasFitTheContract;

/** Is this string one of the calls? (An own-key check, so `__proto__` or `toString` never match.) */
export function isDeskMethod(name: unknown): name is DeskMethod {
  return typeof name === "string" && Object.hasOwn(requestSchemas, name);
}

/** A call from the browser host's page: `id` pairs it with its reply. */
export const ClientRequest = Type.Object(
  {
    /** Chosen by the client; echoed in the reply. */
    id: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    /** A `DeskMethod`. */
    method: Type.String({ maxLength: 100 }),
    /** The call's parameter object, absent for calls without one. */
    params: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
/** A call from the browser host's page. */
export type ClientRequest = Static<typeof ClientRequest>;
