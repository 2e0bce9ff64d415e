import { describe, expect, it } from "vitest";
import { retryAfterOf } from "../../../src/main/agent/failed-response-watch";
import { classifyProviderError } from "../../../src/main/agent/provider-error";

describe("classifyProviderError", () => {
  it("reads the OpenAI SDK's `<status> <message>` and picks the kind by status", () => {
    expect(classifyProviderError("401 Incorrect API key provided: sk-…abcd.")).toEqual({
      kind: "auth",
      status: 401,
      message: "Incorrect API key provided: sk-…abcd.",
    });
    expect(classifyProviderError("403 Forbidden").kind).toBe("auth");
    expect(classifyProviderError("404 The model `gpt-9` does not exist").kind).toBe("model");
    expect(classifyProviderError("429 Rate limit reached").kind).toBe("rate-limit");
    expect(classifyProviderError("500 status code (no body)")).toMatchObject({
      kind: "provider",
      status: 500,
    });
    expect(classifyProviderError("503 Service Unavailable").kind).toBe("provider");
  });

  it("takes the provider's message out of a JSON body, however it is nested", () => {
    expect(classifyProviderError('500 {"detail":"The upstream model crashed"}').message).toBe(
      "The upstream model crashed",
    );
    expect(
      classifyProviderError('502: {"error":{"code":502,"message":"Bad gateway from upstream"}}'),
    ).toEqual({
      kind: "provider",
      status: 502,
      message: "Bad gateway from upstream",
    });
    // Google-style: the message is itself a JSON document.
    const nested = JSON.stringify({
      error: { message: JSON.stringify({ error: { message: "Quota gone" } }) },
    });
    expect(classifyProviderError(`429 ${nested}`).message).toBe("Quota gone");
    expect(classifyProviderError('400 [{"error":{"message":"Bad field"}}]').message).toBe("Bad field");
  });

  it("keeps the text when there is no JSON, or JSON without a message", () => {
    expect(classifyProviderError("500 {not json").message).toBe("{not json");
    expect(classifyProviderError('500 {"code":7}').message).toBe('{"code":7}');
    expect(classifyProviderError("").message).toMatch(/without a message/);
  });

  it("knows connection failures, which carry no status", () => {
    for (const raw of [
      "Connection error.: connect ECONNREFUSED 127.0.0.1:9",
      "fetch failed",
      "getaddrinfo ENOTFOUND llm.invalid",
      "Request timed out.",
    ]) {
      expect(classifyProviderError(raw).kind, raw).toBe("network");
    }
  });

  it("falls back to the words when there is no status", () => {
    expect(classifyProviderError("Rate limit exceeded for this org").kind).toBe("rate-limit");
    expect(classifyProviderError("Invalid API key").kind).toBe("auth");
    expect(classifyProviderError("Unknown model: m9").kind).toBe("model");
    expect(classifyProviderError("Overloaded").kind).toBe("provider");
    expect(classifyProviderError("Provider finish_reason: content_filter").kind).toBe("other");
  });

  it("finds how long the provider asks to wait in its words", () => {
    expect(classifyProviderError("429 Rate limit reached. Please try again in 20s.").retryAfterMs).toBe(
      20_000,
    );
    expect(classifyProviderError("429 Rate limit reached. Please try again in 1m30s.").retryAfterMs).toBe(
      90_000,
    );
    expect(classifyProviderError("429 Slow down. Try again in 450ms.").retryAfterMs).toBe(450);
    expect(classifyProviderError("429 Too many requests, retry after 2 minutes").retryAfterMs).toBe(120_000);
    expect(
      classifyProviderError("Server requested 120s retry delay (max: 60s). 429 Rate limit reached"),
    ).toEqual({ kind: "rate-limit", status: 429, message: "Rate limit reached", retryAfterMs: 120_000 });
    expect(classifyProviderError("429 Rate limit reached").retryAfterMs).toBeUndefined();
  });

  it("prefers what the host saw of the response: its status and Retry-After", () => {
    expect(classifyProviderError("Too many requests", { status: 429, retryAfterMs: 30_000 })).toEqual({
      kind: "rate-limit",
      status: 429,
      message: "Too many requests",
      retryAfterMs: 30_000,
    });
  });
});

describe("retryAfterOf", () => {
  it("reads retry-after-ms, retry-after in seconds, and retry-after as a date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterOf(new Headers({ "retry-after-ms": "1500" }), now)).toBe(1500);
    expect(retryAfterOf(new Headers({ "retry-after": "30" }), now)).toBe(30_000);
    expect(retryAfterOf(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:02:00 GMT" }), now)).toBe(120_000);
    expect(retryAfterOf(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterOf(new Headers(), now)).toBeUndefined();
  });
});
