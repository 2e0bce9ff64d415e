import type { ModelRuntime } from "@earendil-works/pi-coding-agent";
import type { ResponseHint } from "./provider-error";

/** The HTTP APIs whose Pi adapters send requests through a `fetch` they are given. */
const FETCH_APIS = new Set([
  "openai-completions",
  "openai-responses",
  "anthropic-messages",
  "mistral-conversations",
  "google-generative-ai",
]);

/** A failed response the watch saw. */
interface SeenFailure extends ResponseHint {
  /** When it arrived (epoch ms). */
  at: number;
}

/**
 * Sees the status and `Retry-After` of a provider's failed responses. Pi's error text keeps the status and
 * the provider's message but drops the headers, and `Retry-After` is where a provider says how long to
 * wait; so the runtime's requests go through a `fetch` that looks at a failed response on its way past.
 * Nothing of the request or the body is kept.
 */
export class FailedResponseWatch {
  private last: SeenFailure | undefined;

  /** Routes the runtime's model requests (for the APIs that take a `fetch`) through the watch. */
  install(runtime: ModelRuntime): void {
    const streamSimple = runtime.streamSimple.bind(runtime);
    runtime.streamSimple = (model, context, options) =>
      FETCH_APIS.has(model.api)
        ? streamSimple(model, context, { ...options, fetch: this.wrap(options?.fetch ?? globalThis.fetch) })
        : streamSimple(model, context, options);
  }

  /** The last failed response that arrived at or after `since` (a request's start), if any. */
  since(since: number): ResponseHint | undefined {
    const last = this.last;
    if (!last || last.at < since) return undefined;
    return {
      status: last.status,
      ...(last.retryAfterMs !== undefined ? { retryAfterMs: last.retryAfterMs } : {}),
    };
  }

  private wrap(inner: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      const response = await inner(input, init);
      if (!response.ok) {
        const retryAfterMs = retryAfterOf(response.headers);
        this.last = {
          at: Date.now(),
          status: response.status,
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        };
      }
      return response;
    };
  }
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date, in milliseconds from now. */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
