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

/**
 * Sees the status and `Retry-After` of a provider's failed responses. Pi's error text keeps the status and
 * the provider's message but drops the headers, and `Retry-After` is where a provider says how long to
 * wait; so each model request goes through a `fetch` of its own that looks at a failed response on its
 * way past. What it saw is kept against the message that request ended with (Pi's own object, the one its
 * `message_end` carries), so a failure reaches only the chat and the turn whose request failed, however
 * many chats share the runtime and whatever failed just before. Nothing of the request or the body is kept.
 */
export class FailedResponseWatch {
  /** What each failed request's last response said, by the message Pi ended that request with. */
  private readonly byMessage = new WeakMap<object, ResponseHint>();

  /** Routes the runtime's model requests (for the APIs that take a `fetch`) through the watch. */
  install(runtime: ModelRuntime): void {
    const streamSimple = runtime.streamSimple.bind(runtime);
    runtime.streamSimple = (model, context, options) => {
      if (!FETCH_APIS.has(model.api)) return streamSimple(model, context, options);
      // One request (Pi's own provider retries included): its last failed response is what its error says.
      const seen: { hint?: ResponseHint } = {};
      const stream = streamSimple(model, context, {
        ...options,
        fetch: watchedFetch(options?.fetch ?? globalThis.fetch, seen),
      });
      // Registered before Pi's agent loop awaits the same result, so the hint is kept before the
      // message reaches `message_end`.
      stream.result().then(
        (message) => {
          if (seen.hint) this.byMessage.set(message, seen.hint);
        },
        () => {},
      );
      return stream;
    };
  }

  /** What the host saw of the failed response that `message` (a request's final message) ended with. */
  of(message: object): ResponseHint | undefined {
    return this.byMessage.get(message);
  }
}

/** A `fetch` that notes the status and wait of each failed response into `seen`, last one winning. */
function watchedFetch(
  inner: typeof globalThis.fetch,
  seen: { hint?: ResponseHint },
): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.ok) {
      const retryAfterMs = retryAfterOf(response.headers);
      seen.hint = { status: response.status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    }
    return response;
  };
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
