import type { AgentSession, AgentSessionEvent } from "@earendil-works/pi-coding-agent";
import type { CommandView, RunCommandProgress } from "../../shared/commands";
import type { EditView } from "../../shared/edits";
import type { ChatEventBody } from "../../shared/host-events";
import type { QueuedMessage } from "../../shared/host-state";
import type { NoticeText } from "../../shared/host-text";
import type { McpCallView } from "../../shared/mcp";
import type { AssistantItem, ToolItem, TranscriptItem } from "../../shared/transcript";
import { storedRevertOf } from "./change-actions";
import { CommandViews } from "./command-views";
import { EditViews } from "./edit-views";
import { hostCommandOf } from "./host-command-message";
import { McpCallViews } from "./mcp/mcp-call-views";
import { blocksOf, type ContentBlock, imagesOf, isFailed, textOf } from "./message-content";
import type { ResponseHint } from "./provider-error";
import { ToolCards, type ToolResult } from "./tool-cards";
import { type FailedRequest, TurnErrors } from "./turn-errors";

/** A message of a session's conversation, as Pi stores it. */
type AgentMessage = AgentSession["messages"][number];

/** The first lines of a read-only tool's result shown in the transcript. */
const TOOL_RESULT_PREVIEW_LINES = 8;

/**
 * The conversation as the UI sees it, kept by the host so that any client (a reload, a second tab) can be
 * given it whole. Pi's session events go in; transcript entries, command views and the host events that
 * describe each change come out. It does no I/O.
 */
export class SessionProjection {
  readonly transcript: TranscriptItem[] = [];
  /** The `run_command` calls, as their cards show them. */
  readonly views: CommandViews;
  /** The `edit` and `write` calls, as their cards show them. */
  readonly edits: EditViews;
  /** The calls to MCP tools, as their cards show them. */
  readonly mcpCalls: McpCallViews;
  running = false;
  /** The person's messages waiting to reach the model, as Pi last said (its queue_update). */
  queued: QueuedMessage[] = [];
  /** Which card each tool call gets. */
  private readonly cards: ToolCards;
  private readonly index = new Map<string, number>();
  private assistantCount = 0;
  private currentAssistant: AssistantItem | undefined;
  /** The id of the person's message being sent, until Pi has written it. */
  private currentUser: string | undefined;
  /** The text of the latest assistant message: the one whose tool calls are running. */
  private lastAssistantText = "";
  private readonly turnErrors: TurnErrors;
  /** While `reload` rebuilds the transcript: the cards held before it, which stay as they are. */
  private known: ReadonlySet<string> | undefined;

  constructor(
    private readonly emit: (event: ChatEventBody) => void,
    cwd: string,
    maxTimeoutSeconds: number,
    /** What the host saw of the failed HTTP response a request ended with (status, `Retry-After`). */
    responseHint?: (request: FailedRequest) => ResponseHint | undefined,
    /** Pi's entry id of a message it has written to the session file. */
    private readonly entryIdOf: (message: AgentMessage) => string | undefined = () => undefined,
  ) {
    this.views = new CommandViews(emit, cwd, maxTimeoutSeconds);
    this.edits = new EditViews(emit);
    this.mcpCalls = new McpCallViews(emit);
    this.cards = new ToolCards(this.views, this.edits, this.mcpCalls);
    this.turnErrors = new TurnErrors(
      {
        put: (item, live) => this.put(item, live),
        replace: (item) => this.replace(item),
        nextId: () => this.nextId("e"),
      },
      responseHint,
    );
  }

  /**
   * Rebuilds the projection from a stored conversation (reopening a session), without emitting; `entryIds`
   * holds Pi's entry id of each message, in the same order.
   */
  load(messages: readonly AgentMessage[], entryIds: readonly (string | undefined)[] = []): void {
    for (const [at, message] of messages.entries()) {
      const m = message as { role: string; content?: unknown; toolCallId?: string; details?: unknown };
      const entry = entryIds[at] ? { entryId: entryIds[at] } : {};
      if (m.role === "user")
        this.put({
          kind: "user",
          id: this.nextId("u"),
          ...entry,
          text: textOf(m.content),
          ...imagesOf(m.content),
        });
      if (m.role === "assistant") {
        const item = { ...this.assistantItem(message, false), ...entry };
        if (item.text || item.thinking) this.put(item);
        if (isFailed(message)) {
          // A stored session keeps the request that failed last, not how many were tried.
          this.turnErrors.failed(message, false);
          this.turnErrors.turnOver();
        }
        for (const block of blocksOf(m.content))
          if (block.type === "toolCall") this.toolStarted(block, false);
      }
      if (m.role === "toolResult" && m.toolCallId) this.toolEnded(m.toolCallId, m, false);
      if (m.role === "compactionSummary") {
        const { summary, tokensBefore } = message as { summary?: string; tokensBefore?: number };
        this.put({
          kind: "compaction",
          id: this.nextId("c"),
          summary: summary ?? "",
          tokensBefore: tokensBefore ?? 0,
          reason: "stored",
        });
      }
      const hosted = hostCommandOf(message);
      if (hosted) {
        // A command the host ran in the chat (a worktree's setup step): its card, as Pi keeps a tool call's.
        const call = {
          type: "toolCall",
          id: hosted.toolCallId,
          name: "run_command",
          arguments: { command: hosted.command },
        };
        this.toolStarted(call, false);
        this.toolEnded(hosted.toolCallId, hosted.result, false);
      }
      const revert = this.known ? undefined : storedRevertOf(message);
      if (revert) {
        this.views.addStoredRevert(revert.commandId, revert.entry);
        this.edits.addStoredRevert(revert.commandId, revert.entry);
      }
    }
    if (this.known) return;
    this.views.settleStored();
    this.edits.settleStored();
    this.mcpCalls.settleStored();
  }

  /**
   * Rebuilds the transcript once Pi's session moved to another point of its tree (a rewind, or back from
   * one), without emitting: the caller sends the whole state. Cards already held keep their state (a
   * background command before the message still runs), so the conversation can come back to them.
   */
  reload(messages: readonly AgentMessage[], entryIds: readonly (string | undefined)[]): void {
    this.transcript.length = 0;
    this.index.clear();
    this.known = new Set([...this.views.byId.keys(), ...this.edits.byId.keys()]);
    try {
      this.load(messages, entryIds);
    } finally {
      this.known = undefined;
    }
  }

  /** Cards of a reopened chat whose change records are gone (pruned since): they stop offering undo. */
  markDropped(recorded: (id: string) => boolean): void {
    this.cards.markDropped(recorded);
  }

  /** Every command's view by id (what the cards show). */
  get commands(): ReadonlyMap<string, CommandView> {
    return this.views.byId;
  }

  /** A line from the host in the conversation (a background command stopped or exited). */
  addNotice(level: "info" | "error", text: string, say?: NoticeText): void {
    this.put({ kind: "notice", id: this.nextId("n"), level, text, ...(say ? { say } : {}) }, true);
  }

  /** Passes on an event of the chat that Pi's session events do not make (the context's figures). */
  tell(event: ChatEventBody): void {
    this.emit(event);
  }

  /** Applies one live event from Pi's session. */
  apply(event: AgentSessionEvent): void {
    switch (event.type) {
      case "agent_start":
        this.setRunning(true);
        return;
      case "agent_settled":
        this.turnErrors.turnOver();
        this.setRunning(false);
        return;
      case "message_start": {
        const role = (event.message as { role: string }).role;
        if (role === "user") {
          this.turnErrors.turnOver();
          this.currentUser = this.nextId("u");
          this.put(
            {
              kind: "user",
              id: this.currentUser,
              text: textOf((event.message as { content?: unknown }).content),
              ...imagesOf((event.message as { content?: unknown }).content),
            },
            true,
          );
        } else if (role === "assistant") {
          this.currentAssistant = {
            kind: "assistant",
            id: this.nextId("a"),
            text: "",
            thinking: "",
            streaming: true,
          };
          this.put(this.currentAssistant, true);
        }
        return;
      }
      case "message_update": {
        const delta = event.assistantMessageEvent;
        const current = this.currentAssistant;
        if (!current) return;
        if (delta.type === "text_delta") {
          current.text += delta.delta;
          this.emit({ type: "assistant-delta", id: current.id, text: delta.delta });
        } else if (delta.type === "thinking_delta") {
          current.thinking += delta.delta;
          this.emit({ type: "assistant-delta", id: current.id, thinking: delta.delta });
        }
        return;
      }
      case "message_end": {
        const current = this.currentAssistant;
        const role = (event.message as { role: string }).role;
        if (role === "user" && this.currentUser) this.attachEntryId(this.currentUser, event.message);
        if (role !== "assistant" || !current) return;
        const final = { ...this.assistantItem(event.message, false), id: current.id };
        this.currentAssistant = undefined;
        this.lastAssistantText = final.text;
        // A failed request's empty message renders as nothing; the turn's error entry tells the story.
        this.replace(final);
        this.attachEntryId(final.id, event.message);
        if (isFailed(event.message)) this.turnErrors.failed(event.message);
        return;
      }
      case "tool_execution_start":
        this.toolStarted(
          { type: "toolCall", id: event.toolCallId, name: event.toolName, arguments: event.args },
          true,
          // A call a codemode script made: its card says so.
          (event as { parentToolCallId?: string }).parentToolCallId,
        );
        return;
      case "tool_execution_update":
        this.views.progress(
          event.toolCallId,
          event.partialResult?.details as RunCommandProgress | undefined,
          textOf(event.partialResult?.content),
        );
        return;
      case "tool_execution_end":
        this.toolEnded(event.toolCallId, { ...event.result, isError: event.isError }, true);
        return;
      case "auto_retry_start":
        // `maxAttempts` is Pi's `retry.maxRetries`: the retries after the first request.
        this.turnErrors.retrying(event.delayMs, event.maxAttempts, event.errorMessage);
        return;
      case "auto_retry_end":
        this.turnErrors.retryEnded(event.success);
        return;
      case "compaction_end":
        if (event.result) {
          const { summary, tokensBefore } = event.result;
          this.put(
            { kind: "compaction", id: this.nextId("c"), summary, tokensBefore, reason: event.reason },
            true,
          );
        }
        return;
      case "queue_update":
        this.queued = [
          ...event.steering.map((text) => ({ mode: "steer" as const, text })),
          ...event.followUp.map((text) => ({ mode: "follow-up" as const, text })),
        ];
        this.emit({ type: "queue-changed", queued: this.queued });
        return;
    }
  }

  /** Replaces an edit's view (its diff, a decision) and tells the UI. */
  updateEdit(id: string, patch: Partial<EditView>): EditView | undefined {
    return this.edits.update(id, patch);
  }

  /** Replaces an MCP call's view (its card, a decision) and tells the UI. */
  updateMcpCall(id: string, patch: Partial<McpCallView>): McpCallView | undefined {
    return this.mcpCalls.update(id, patch);
  }

  /** Replaces a command's view (a decision, the host's own knowledge) and tells the UI. */
  updateCommand(id: string, patch: Partial<CommandView>): CommandView | undefined {
    return this.views.update(id, patch);
  }

  /** The codemode call whose script made this call (its card says so, and so does its audit line). */
  parentOf(id: string): string | undefined {
    return this.cards.parentOf(id);
  }

  /** What the agent said in the message that asked for a command: its reason, when it gave one. */
  reasonFor(): string | undefined {
    const text = this.lastAssistantText.trim();
    return text ? text.slice(-2000) : undefined;
  }

  private toolStarted(block: ContentBlock, live = true, parentToolCallId?: string): void {
    const id = block.id ?? this.nextId("t");
    if (this.index.has(id)) return;
    const args = (block.arguments ?? {}) as Record<string, unknown>;
    if (this.known?.has(id)) {
      this.put({ kind: this.views.byId.has(id) ? "command" : "edit", id }, live);
      return;
    }
    const card = this.cards.started(id, block.name, args, live, parentToolCallId);
    if (card) {
      this.put({ kind: card, id }, live);
      return;
    }
    const summary = Object.values(args)
      .filter((value) => typeof value === "string" || typeof value === "number")
      .join(" ");
    this.put(
      { kind: "tool", id, name: block.name ?? "tool", summary: summary.slice(0, 300), state: "running" },
      live,
    );
  }

  private toolEnded(id: string, result: ToolResult, live: boolean) {
    if (this.known?.has(id) || this.cards.ended(id, result, live)) return;
    const at = this.index.get(id);
    const item = at === undefined ? undefined : this.transcript[at];
    if (item?.kind !== "tool") return;
    const preview = textOf(result.content).split("\n").slice(0, TOOL_RESULT_PREVIEW_LINES).join("\n");
    const next: ToolItem = { ...item, state: result.isError ? "failed" : "done", result: preview };
    if (live) this.replace(next);
    else this.transcript[at as number] = next;
  }

  private assistantItem(message: AgentMessage, streaming: boolean): AssistantItem {
    const m = message as { content?: unknown };
    const blocks = blocksOf(m.content);
    return {
      kind: "assistant",
      id: this.nextId("a"),
      text: blocks.map((b) => (b.type === "text" ? (b.text ?? "") : "")).join(""),
      thinking: blocks.map((b) => (b.type === "thinking" ? (b.thinking ?? "") : "")).join(""),
      streaming,
    };
  }

  /**
   * Names a message's entry in Pi's session tree on its transcript entry. Pi writes the message to the
   * session file right after telling its listeners of its end, so the id is read a moment later.
   */
  private attachEntryId(itemId: string, message: AgentMessage): void {
    queueMicrotask(() => {
      const entryId = this.entryIdOf(message);
      const at = this.index.get(itemId);
      const item = at === undefined ? undefined : this.transcript[at];
      if (!entryId || (item?.kind !== "user" && item?.kind !== "assistant") || item.entryId === entryId)
        return;
      this.replace({ ...item, entryId });
    });
  }

  private setRunning(running: boolean): void {
    if (this.running === running) return;
    this.running = running;
    this.emit({ type: "session-status", running });
  }

  private put(item: TranscriptItem, live = false): void {
    this.index.set(item.id, this.transcript.length);
    this.transcript.push(item);
    if (live) this.emit({ type: "transcript-add", item });
  }

  private replace(item: TranscriptItem): void {
    const at = this.index.get(item.id);
    if (at === undefined) return;
    this.transcript[at] = item;
    this.emit({ type: "transcript-update", item });
  }

  /**
   * An id for an entry of the host's making (a message, a notice). They start with "#": the model picks
   * tool call ids, which are the ids of command, edit and tool entries, and a call named like one of these
   * would otherwise hide its entry.
   */
  private nextId(prefix: string): string {
    this.assistantCount += 1;
    return `#${prefix}${this.assistantCount}`;
  }
}
