import type { TurnErrorItem } from "../../shared/transcript";
import { classifyProviderError, type ResponseHint } from "./provider-error";

/** How the turn-error tracker changes the transcript; the projection owns the list. */
export interface TurnErrorSink {
  /** Adds an entry at the end (and tells the UI when live). */
  put(item: TurnErrorItem, live: boolean): void;
  /** Replaces the entry with the same id (and tells the UI). */
  replace(item: TurnErrorItem): void;
  /** A fresh entry id. */
  nextId(): string;
}

/**
 * A failed request: the assistant message Pi ended it with (`stopReason: "error"`), the very object its
 * `message_end` carries, by which the host finds what it saw of that request's response.
 */
export interface FailedRequest {
  /** Pi's `errorMessage`. */
  errorMessage?: string;
}

/**
 * One error entry per failed turn. Pi ends every failed request with an assistant message in error and,
 * when it retries, brackets the retries with `auto_retry_start` (before each wait) and `auto_retry_end`
 * (once: a later request was answered, or it gave up); so the entry counts the requests, says when Pi
 * sends the next one, and ends with the outcome.
 */
export class TurnErrors {
  /** The entry of the turn in progress, while it can still change. */
  private current: TurnErrorItem | undefined;

  constructor(
    private readonly sink: TurnErrorSink,
    /** What the host saw of the failed HTTP response this request ended with (status, `Retry-After`). */
    private readonly responseHint: (request: FailedRequest) => ResponseHint | undefined = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** A request failed: the turn's entry counts it, or the turn gets one. */
  failed(request: FailedRequest, live = true): void {
    const raw = request.errorMessage?.trim() || "The model's provider returned an error without a message.";
    const hint = live ? this.responseHint(request) : undefined;
    const error = classifyProviderError(raw, hint);
    const fields = {
      errorKind: error.kind,
      message: error.message,
      raw,
      state: "failed" as const,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.retryAfterMs !== undefined && live ? { retryAfter: this.now() + error.retryAfterMs } : {}),
    };
    const previous = this.current;
    if (previous) {
      const { retryAt: _retryAt, retryAfter: _retryAfter, status: _status, ...kept } = previous;
      // Still retrying until Pi says it gave up (auto_retry_end) or the turn ends.
      this.update({ ...kept, ...fields, state: previous.state, attempts: previous.attempts + 1 });
      return;
    }
    const item: TurnErrorItem = {
      kind: "turn-error",
      id: this.sink.nextId(),
      attempts: 1,
      maxRetries: 0,
      ...fields,
    };
    this.current = item;
    this.sink.put(item, live);
  }

  /** Pi waits `delayMs` before sending the request again (`auto_retry_start`). */
  retrying(delayMs: number, maxRetries: number, errorMessage: string): void {
    if (!this.current) this.failed({ errorMessage });
    const current = this.current as TurnErrorItem;
    this.update({ ...current, state: "retrying", maxRetries, retryAt: this.now() + delayMs });
  }

  /** Pi stopped retrying (`auto_retry_end`): a retry was answered, or it gave up. */
  retryEnded(success: boolean): void {
    const current = this.current;
    if (!current) return;
    const { retryAt: _retryAt, ...rest } = current;
    // The answered request counts too: attempts is every request made for the turn.
    this.update(
      success
        ? { ...rest, state: "recovered", attempts: current.attempts + 1 }
        : { ...rest, state: "failed" },
    );
    if (success) this.current = undefined;
  }

  /** The turn is over (the agent settled, or the person wrote again): its entry no longer changes. */
  turnOver(): void {
    const current = this.current;
    this.current = undefined;
    if (current?.state === "retrying") {
      const { retryAt: _retryAt, ...rest } = current;
      this.sink.replace({ ...rest, state: "failed" });
    }
  }

  private update(item: TurnErrorItem): void {
    this.current = item;
    this.sink.replace(item);
  }
}
