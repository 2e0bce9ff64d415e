import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import {
  type Api,
  type AssistantMessage,
  type FauxContentBlock,
  type FauxResponseFactory,
  fauxAssistantMessage,
  fauxProvider,
  fauxText,
  fauxThinking,
  fauxToolCall,
  type JsonObject,
  type Model,
  type TranscriptContext,
} from "@earendil-works/pi-ai";
import type { ModelRuntime } from "@earendil-works/pi-coding-agent";
import { type Static, Type } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import { errorMessage } from "../base/errors";

/** The environment variable that names a script file; when set, the scripted model plays the agent's model. */
export const SCRIPT_ENV = "PI_DESK_SCRIPT";

/** The provider id the scripted model is registered under. */
export const SCRIPTED_PROVIDER = "pi-desk-script";

/** The scripted model's id within its provider. */
export const SCRIPTED_MODEL_ID = "scripted";

/** What the scripted model answers once every turn of the script has been played. */
export const END_OF_SCRIPT = "(end of script)";

const blockSchemas = {
  text: Type.Object({ type: Type.Literal("text"), text: Type.String() }, { additionalProperties: false }),
  thinking: Type.Object(
    { type: Type.Literal("thinking"), thinking: Type.String() },
    { additionalProperties: false },
  ),
  toolCall: Type.Object(
    {
      type: Type.Literal("toolCall"),
      name: Type.String({ minLength: 1 }),
      arguments: Type.Record(Type.String(), Type.Unknown()),
      id: Type.Optional(Type.String({ minLength: 1 })),
    },
    { additionalProperties: false },
  ),
  error: Type.Object(
    { type: Type.Literal("error"), message: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
  delay: Type.Object(
    { type: Type.Literal("delay"), ms: Type.Integer({ minimum: 0, maximum: 600_000 }) },
    { additionalProperties: false },
  ),
};

type BlockType = keyof typeof blockSchemas;
const blockTypes = Object.keys(blockSchemas) as BlockType[];
const validators = Object.fromEntries(
  blockTypes.map((type) => [type, Compile(blockSchemas[type])]),
) as Record<BlockType, Validator>;

/** One block of a scripted turn, as written in the script file. */
export type ScriptBlock = { [K in BlockType]: Static<(typeof blockSchemas)[K]> }[BlockType];

/**
 * A validated script. Each chat plays it from its first turn: each request a chat's agent makes gets that
 * chat's next turn. A turn streams its blocks in order: `text`, `thinking` and `toolCall` become the
 * assistant message's content; a last `error` block ends the turn as a provider error (`stopReason:
 * "error"`); a first `delay` block waits before anything streams, as a slow model would.
 *
 * The file is an array of turns, played by every chat; or an object whose keys are the start of a chat's
 * first message, each holding that chat's turns (the longest key that fits wins; "" fits every chat), so one
 * test can run chats with different scripts.
 */
export interface Script {
  /** The absolute path of the file the script came from. */
  source: string;
  /** The turns every chat plays, in the order its requests get them (the file's array, or its "" key). */
  turns: ScriptBlock[][];
  /** A file that is an object: each chat's turns, by the start of its first message. */
  byFirstMessage?: Record<string, ScriptBlock[][]>;
}

/** Returns the script path `PI_DESK_SCRIPT` names, or undefined when it is unset or empty. */
export function scriptPathFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[SCRIPT_ENV]?.trim();
  return value ? resolve(value) : undefined;
}

/**
 * Reads and validates a script file. Throws an error naming the file and the first thing wrong with it,
 * e.g. `PI_DESK_SCRIPT /x/y.json: turn 2, block 1 (toolCall): missing field "arguments"`.
 */
export function loadScript(path: string): Script {
  const source = resolve(path);
  const fail = (where: string, problem: string): never => {
    throw new Error(`${SCRIPT_ENV} ${source}: ${where ? `${where}: ` : ""}${problem}`);
  };
  let text: string;
  try {
    text = readFileSync(source, "utf8");
  } catch (error) {
    return fail(
      "",
      `cannot read the file (${errorMessage(error)}). Point ${SCRIPT_ENV} at an existing JSON file.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail("", `the file is not valid JSON (${errorMessage(error)}).`);
  }
  if (Array.isArray(data)) return { source, turns: checkTurns(data, "", fail) };
  if (typeof data !== "object" || data === null) {
    return fail(
      "",
      `expected an array of turns (each an array of blocks), or an object of them by the start of a chat's first message, got ${kindOf(data)}.`,
    );
  }
  const byFirstMessage: Record<string, ScriptBlock[][]> = {};
  for (const [start, turns] of Object.entries(data)) {
    const where = `chat ${JSON.stringify(start)}`;
    if (!Array.isArray(turns)) return fail(where, `expected an array of turns, got ${kindOf(turns)}.`);
    byFirstMessage[start] = checkTurns(turns, `${where}, `, fail);
  }
  return { source, turns: byFirstMessage[""] ?? [], byFirstMessage };
}

/** Checks each turn of a list; `fail` throws with where and what. */
function checkTurns(
  data: unknown[],
  prefix: string,
  fail: (where: string, problem: string) => never,
): ScriptBlock[][] {
  return data.map((turn: unknown, t) => {
    const where = `${prefix}turn ${t + 1}`;
    if (!Array.isArray(turn)) return fail(where, `expected an array of blocks, got ${kindOf(turn)}.`);
    if (turn.length === 0) return fail(where, "a turn needs at least one block.");
    return turn.map((block: unknown, b) => {
      const checked = checkBlock(block);
      const at = `${where}, block ${b + 1}${checked.type ? ` (${checked.type})` : ""}`;
      if ("problem" in checked) return fail(at, checked.problem);
      if (checked.type === "delay" && b !== 0) {
        return fail(at, "a delay block must come first in its turn: it is the wait before the turn streams.");
      }
      if (checked.type === "error" && b !== turn.length - 1) {
        return fail(at, "an error block must come last in its turn: the error ends the turn.");
      }
      return checked;
    });
  });
}

/** Options for the scripted model. */
export interface ScriptedModelOptions {
  /** Streaming speed; when absent, text streams as fast as the event loop allows. */
  tokensPerSecond?: number;
  /** Called at each request with the transcript the model sees; `turn` is 1-based, undefined past the end. */
  onRequest?: (request: ScriptRequest) => void;
}

/** One request the agent made of the scripted model. */
export interface ScriptRequest {
  /** The 1-based script turn that answers it, or undefined once the script has run out. */
  turn: number | undefined;
  /** The transcript as a provider receives it: system messages, user, assistant and tool results. */
  context: TranscriptContext;
}

/**
 * Registers the script as a provider on the runtime and returns its model, to pass to
 * `createAgentSession`. Registering again replaces the previous script.
 */
export function registerScriptedModel(
  modelRuntime: ModelRuntime,
  script: Script,
  options: ScriptedModelOptions = {},
): Model<Api> {
  const faux = fauxProvider({
    provider: SCRIPTED_PROVIDER,
    models: [
      {
        id: SCRIPTED_MODEL_ID,
        name: `Scripted model (${basename(script.source)})`,
        reasoning: [script.turns, ...Object.values(script.byFirstMessage ?? {})].some((turns) =>
          turns.some((turn) => turn.some((block) => block.type === "thinking")),
        ),
      },
    ],
    tokensPerSecond: options.tokensPerSecond,
  });
  // Each chat's place in its turns, by Pi's session id (every request of a session names it).
  const played = new Map<string, number>();
  // Pi's compaction asks for its summary under a session id of its own: that request plays the next turn
  // of the chat that asked last (the one being compacted), so a script writes a compaction's summary as
  // the chat's next turn.
  let lastChat: { id: string; turns: ScriptBlock[][] } | undefined;
  const respond: FauxResponseFactory = async (context, streamOptions) => {
    // The faux provider takes one queued step per request and answers "No more faux responses queued"
    // when none is left, so each step queues its successor and the script's own cursors pick the turn.
    faux.appendResponses([respond]);
    const compacting = isSummaryRequest(context) ? lastChat : undefined;
    const chat = compacting?.id ?? streamOptions?.sessionId ?? "";
    const turns = compacting?.turns ?? turnsFor(script, context);
    if (!compacting) lastChat = { id: chat, turns };
    const at = played.get(chat) ?? 0;
    const turn = turns[at];
    options.onRequest?.({ turn: turn ? at + 1 : undefined, context });
    if (!turn) return fauxAssistantMessage(END_OF_SCRIPT);
    played.set(chat, at + 1);
    return playTurn(turn, streamOptions?.signal);
  };
  // Several queued steps, so that requests started in the same tick each find one.
  faux.setResponses([respond, respond, respond, respond]);
  modelRuntime.registerNativeProvider(faux.provider);
  return faux.getModel();
}

/** Whether a request is Pi's compaction asking for a summary (its system prompt says so). */
function isSummaryRequest(context: TranscriptContext): boolean {
  const system = context.messages.find((message) => (message.role as string) === "system");
  return textOf(system?.content).startsWith("You are a context summarization assistant");
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: string }) => (block.type === "text" ? block.text : ""))
    .join("");
}

/** The turns of the chat a request comes from: by the start of its first message, when the script says so. */
function turnsFor(script: Script, context: TranscriptContext): ScriptBlock[][] {
  if (!script.byFirstMessage) return script.turns;
  const text = textOf(context.messages.find((message) => message.role === "user")?.content);
  let best: string | undefined;
  for (const start of Object.keys(script.byFirstMessage)) {
    if (text.startsWith(start) && (best === undefined || start.length > best.length)) best = start;
  }
  return best === undefined ? [] : (script.byFirstMessage[best] ?? []);
}

async function playTurn(turn: ScriptBlock[], signal: AbortSignal | undefined): Promise<AssistantMessage> {
  const content: FauxContentBlock[] = [];
  let errorMessage: string | undefined;
  for (const block of turn) {
    if (block.type === "delay") await sleep(block.ms, signal);
    else if (block.type === "error") errorMessage = block.message;
    else if (block.type === "text") content.push(fauxText(block.text));
    else if (block.type === "thinking") content.push(fauxThinking(block.thinking));
    // The arguments were parsed from JSON, so every value in them is JSON.
    else
      content.push(fauxToolCall(block.name, block.arguments as JsonObject, block.id ? { id: block.id } : {}));
  }
  if (errorMessage !== undefined) return fauxAssistantMessage(content, { stopReason: "error", errorMessage });
  const stopReason = content.some((block) => block.type === "toolCall") ? "toolUse" : "stop";
  return fauxAssistantMessage(content, { stopReason });
}

/** Resolves after `ms`, or at once when the request is aborted (the faux provider then reports the abort). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    if (signal?.aborted) return done();
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", finish);
      done();
    };
    const timer = setTimeout(finish, ms);
    signal?.addEventListener("abort", finish, { once: true });
  });
}

type BlockCheck = ScriptBlock | { type?: BlockType; problem: string };

/** The block when it is valid, otherwise what is wrong with it. */
function checkBlock(block: unknown): BlockCheck {
  const expected = `use one of ${blockTypes.map((type) => `"${type}"`).join(", ")}`;
  if (typeof block !== "object" || block === null || Array.isArray(block)) {
    return { problem: `expected an object with a "type" field (${expected}), got ${kindOf(block)}.` };
  }
  const type: unknown = (block as { type?: unknown }).type;
  if (typeof type !== "string" || !isBlockType(type)) {
    const problem =
      type === undefined
        ? `missing field "type" (${expected}).`
        : `unknown block type ${JSON.stringify(type)}; ${expected}.`;
    return { problem };
  }
  const validator = validators[type];
  if (validator.Check(block)) return block as ScriptBlock;
  const problems = [...validator.Errors(block)].flatMap((error) => {
    if (error.keyword === "boolean") return []; // repeats an additionalProperties error, less clearly
    const params = error.params as { requiredProperties?: string[]; additionalProperties?: string[] };
    if (error.keyword === "required") {
      return (params.requiredProperties ?? []).map((name) => `missing field "${name}"`);
    }
    if (error.keyword === "additionalProperties") {
      return (params.additionalProperties ?? []).map((name) => `unknown field "${name}"`);
    }
    const field = error.instancePath.replace(/^\//, "").replaceAll("/", ".");
    return [field ? `"${field}" ${error.message}` : error.message];
  });
  return { type, problem: `${[...new Set(problems)].join("; ")}.` };
}

function isBlockType(type: string): type is BlockType {
  return (blockTypes as string[]).includes(type);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
