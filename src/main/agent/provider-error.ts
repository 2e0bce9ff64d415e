import type { TurnErrorKind } from "../../shared/transcript";

/** A provider's error as Pi reported it, read for a person: what kind, the provider's words, when to retry. */
export interface ProviderError {
  /** What failed, which decides the advice. */
  kind: TurnErrorKind;
  /** The HTTP status, when the error carries one. */
  status?: number;
  /** The provider's own message, out of its JSON; the raw text when there is nothing better. */
  message: string;
  /** How long the provider asked to wait before trying again, in milliseconds, when it said. */
  retryAfterMs?: number;
}

/** What the host saw of the failed HTTP response itself, which Pi's error text leaves out. */
export interface ResponseHint {
  /** The response's status. */
  status?: number;
  /** Its `retry-after-ms` or `retry-after` header, in milliseconds. */
  retryAfterMs?: number;
}

/*
 * Pi's provider adapters report errors as text: the OpenAI and Anthropic SDKs write `<status> <message>`
 * (the message taken from `error.message` of the body when it has one, else the body's JSON),
 * Pi's own formatter `<status>: <body>`, a refused provider-requested delay
 * `Server requested 30s retry delay (max: 60s). <error>`, and a connection failure
 * `Connection error.: connect ECONNREFUSED 127.0.0.1:9`. This reads all of them.
 */

const NETWORK =
  /connection error|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|fetch failed|socket hang up|getaddrinfo|network.?error|other side closed|timed? ?out/i;
const AUTH =
  /invalid.{0,20}api.?key|incorrect api key|unauthori[sz]ed|authentication|permission denied|forbidden/i;
const MODEL = /model.{0,80}(not found|does not exist|unknown|not available)|no such model|unknown model/i;
const RATE = /rate.?limit|too many requests|quota|resource.?exhausted/i;
const PROVIDER =
  /overloaded|internal.?server.?error|server.?error|service.?unavailable|bad gateway|gateway timeout/i;

/** Reads Pi's `errorMessage` (and what the host saw of the response) into a `ProviderError`. */
export function classifyProviderError(raw: string, hint: ResponseHint = {}): ProviderError {
  const text = raw.trim();
  const requested = /^Server requested (\d+(?:\.\d+)?)s retry delay \(max: [^)]*\)\.\s*/i.exec(text);
  const rest = requested ? text.slice(requested[0].length) : text;
  const { status: parsedStatus, body } = splitStatus(rest);
  const status = parsedStatus ?? hint.status;
  const message = messageOf(body) || rest || "The provider returned an error without a message.";
  const said = requested ? Number(requested[1]) * 1000 : waitIn(message);
  const retryAfterMs = hint.retryAfterMs ?? said;
  return {
    kind: kindOf(status, `${message}\n${text}`),
    ...(status !== undefined ? { status } : {}),
    message,
    ...(retryAfterMs !== undefined && retryAfterMs >= 0 ? { retryAfterMs } : {}),
  };
}

function kindOf(status: number | undefined, text: string): TurnErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "model";
  if (status === 429) return "rate-limit";
  if (status !== undefined && status >= 500 && status < 600) return "provider";
  if (status === undefined && NETWORK.test(text)) return "network";
  if (RATE.test(text)) return "rate-limit";
  if (AUTH.test(text)) return "auth";
  if (MODEL.test(text)) return "model";
  if (PROVIDER.test(text)) return "provider";
  return "other";
}

/** `429 Rate limit…` or `500: {...}` → the status and the rest; otherwise no status and the whole text. */
function splitStatus(text: string): { status?: number; body: string } {
  const leading = /^(?:HTTP\s*)?([1-5]\d\d)(?::|\s|$)\s*/.exec(text);
  if (leading) return { status: Number(leading[1]), body: text.slice(leading[0].length) };
  const inside = /\b(?:status(?: code)?|HTTP)[:\s]*([1-5]\d\d)\b/i.exec(text);
  return inside ? { status: Number(inside[1]), body: text } : { body: text };
}

/** The message inside a JSON body (`error.message`, `message`, `detail`, ...), however deep; else the text. */
function messageOf(body: string, depth = 0): string {
  const trimmed = body.trim();
  const start = trimmed.search(/[[{]/);
  if (start < 0 || depth > 3) return trimmed;
  const json = parseJson(trimmed.slice(start));
  if (json === undefined) return trimmed;
  const found = findMessage(json);
  if (found === undefined) return trimmed;
  const before = trimmed
    .slice(0, start)
    .trim()
    .replace(/[:\s]+$/, "");
  const inner = messageOf(found, depth + 1);
  return before && !/^\d{3}$/.test(before) ? `${before}: ${inner}` : inner;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const MESSAGE_KEYS = ["message", "error_description", "detail", "error", "msg", "description"];

function findMessage(value: unknown, depth = 0): string | undefined {
  if (depth > 4 || value === null) return undefined;
  if (typeof value === "string") return value.trim() || undefined;
  if (Array.isArray(value)) return value.length > 0 ? findMessage(value[0], depth + 1) : undefined;
  if (typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  // `error` usually holds the details object, so it is searched first when it is one.
  if (typeof record.error === "object" && record.error !== null) {
    const nested = findMessage(record.error, depth + 1);
    if (nested) return nested;
  }
  for (const key of MESSAGE_KEYS) {
    const candidate = record[key];
    if (typeof candidate === "string" && candidate.trim()) return candidate.trim();
  }
  return undefined;
}

/** "Please try again in 1m30s", "retry after 20 seconds", "try again in 450ms" → milliseconds. */
function waitIn(text: string): number | undefined {
  const compact = /(?:try again|retry)(?: after| in)\s+((?:\d+(?:\.\d+)?(?:h|m|s|ms)\s*)+)(?![a-z])/i.exec(
    text,
  );
  if (compact?.[1]) {
    let total = 0;
    for (const [, value, unit] of compact[1].matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
      total += Number(value) * (unit === "ms" ? 1 : unit === "s" ? 1000 : unit === "m" ? 60_000 : 3_600_000);
    }
    return total;
  }
  const worded =
    /(?:try again|retry)(?: after| in)\s+(\d+(?:\.\d+)?)\s*(seconds?|secs?|minutes?|mins?)\b/i.exec(text);
  if (worded?.[1] && worded[2]) return Number(worded[1]) * (/^m/i.test(worded[2]) ? 60_000 : 1000);
  return undefined;
}
