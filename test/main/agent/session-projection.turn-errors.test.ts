import type { AgentSessionEvent } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { SessionProjection } from "../../../src/main/agent/session-projection";
import type { ChatEventBody } from "../../../src/shared/host-events";
import type { TurnErrorItem } from "../../../src/shared/transcript";

/** Pi's events, built as loosely as the projection reads them. */
const ev = (event: Record<string, unknown>) => event as unknown as AgentSessionEvent;
const user = (text: string) => ev({ type: "message_start", message: { role: "user", content: text } });
const failedRequest = (errorMessage: string) => [
  ev({ type: "message_start", message: { role: "assistant", content: [] } }),
  ev({
    type: "message_end",
    message: { role: "assistant", content: [], stopReason: "error", errorMessage, timestamp: Date.now() - 5 },
  }),
];
const answered = (text: string) => [
  ev({ type: "message_start", message: { role: "assistant", content: [] } }),
  ev({
    type: "message_end",
    message: { role: "assistant", content: [{ type: "text", text }], stopReason: "stop" },
  }),
];
const retry = (attempt: number) =>
  ev({
    type: "auto_retry_start",
    attempt,
    maxAttempts: 3,
    delayMs: 2000 * attempt,
    errorMessage: "500 down",
  });

function project(events: AgentSessionEvent[], hint?: Parameters<typeof newProjection>[1]) {
  const { projection, emitted } = newProjection([], hint);
  for (const event of events) projection.apply(event);
  return {
    projection,
    emitted,
    errors: projection.transcript.filter((i) => i.kind === "turn-error") as TurnErrorItem[],
  };
}

function newProjection(_: unknown[], hint?: ConstructorParameters<typeof SessionProjection>[3]) {
  const emitted: ChatEventBody[] = [];
  const projection = new SessionProjection((e) => emitted.push(e), "/repo", 120, hint);
  return { projection, emitted };
}

describe("a failed turn in the transcript", () => {
  it("is one entry for a request Pi does not retry, of the kind its status says, with the provider's words", () => {
    const { projection, errors } = project([
      ev({ type: "agent_start" }),
      user("hi"),
      ...failedRequest('401 {"error":{"message":"Invalid key"}}'),
      ev({ type: "agent_settled" }),
    ]);
    expect(errors).toEqual([
      expect.objectContaining({
        errorKind: "auth",
        status: 401,
        message: "Invalid key",
        attempts: 1,
        state: "failed",
      }),
    ]);
    // The failed request's own entry says nothing (the renderer draws an empty, finished message as nothing).
    expect(projection.transcript.find((i) => i.kind === "assistant")).toMatchObject({
      text: "",
      streaming: false,
    });
  });

  it("is one entry across Pi's retries: counting requests, retrying, then failed", () => {
    const events = [
      user("hi"),
      ...failedRequest("500 Internal Server Error"),
      retry(1),
      ...failedRequest("500 Internal Server Error"),
      retry(2),
      ...failedRequest("500 Internal Server Error"),
      retry(3),
    ];
    const { projection, errors, emitted } = project(events);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ errorKind: "provider", attempts: 3, maxRetries: 3, state: "retrying" });
    expect(errors[0]?.retryAt).toBeGreaterThan(Date.now());
    for (const event of [
      ...failedRequest("500 Internal Server Error"),
      ev({ type: "auto_retry_end", success: false, attempt: 3, finalError: "500 Internal Server Error" }),
      ev({ type: "agent_settled" }),
    ])
      projection.apply(event);
    const final = projection.transcript.filter((i) => i.kind === "turn-error");
    expect(final).toEqual([expect.objectContaining({ attempts: 4, state: "failed" })]);
    expect(final[0]).not.toHaveProperty("retryAt");
    // The UI heard about the one entry only: one add, then updates of the same id.
    const adds = emitted.filter((e) => e.type === "transcript-add" && e.item.kind === "turn-error");
    expect(adds).toHaveLength(1);
  });

  it("ends recovered when a retry is answered, and the answer follows it", () => {
    const { projection, errors } = project([
      user("hi"),
      ...failedRequest("503 Service Unavailable"),
      retry(1),
      ...answered("Hello."),
      ev({ type: "auto_retry_end", success: true, attempt: 1 }),
    ]);
    expect(errors).toEqual([expect.objectContaining({ state: "recovered", attempts: 2 })]);
    expect(projection.transcript.at(-1)).toMatchObject({ kind: "assistant", text: "Hello." });
  });

  it("starts a new entry for the next turn's failure", () => {
    const { errors } = project([
      user("one"),
      ...failedRequest("401 bad key"),
      ev({ type: "agent_settled" }),
      user("two"),
      ...failedRequest("404 The model `m9` does not exist"),
      ev({ type: "agent_settled" }),
    ]);
    expect(errors.map((e) => [e.errorKind, e.attempts])).toEqual([
      ["auth", 1],
      ["model", 1],
    ]);
  });

  it("takes the status and Retry-After the host saw of the response", () => {
    const { errors } = project([user("hi"), ...failedRequest("429 Too many requests")], () => ({
      status: 429,
      retryAfterMs: 30_000,
    }));
    expect(errors[0]?.errorKind).toBe("rate-limit");
    expect(errors[0]?.retryAfter).toBeGreaterThan(Date.now() + 25_000);
  });

  it("is failed, not retrying, when the agent settles during a wait (Stop)", () => {
    const { errors } = project([
      user("hi"),
      ...failedRequest("500 down"),
      retry(1),
      ev({ type: "agent_settled" }),
    ]);
    expect(errors).toEqual([expect.objectContaining({ state: "failed", attempts: 1 })]);
  });

  it("shows a stored session's failed request as a failed turn", () => {
    const { projection } = newProjection([]);
    projection.load([
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [],
        stopReason: "error",
        errorMessage: "Connection error.: connect ECONNREFUSED",
      },
    ] as never);
    expect(projection.transcript.map((i) => i.kind)).toEqual(["user", "turn-error"]);
    expect(projection.transcript[1]).toMatchObject({ errorKind: "network", state: "failed" });
  });
});
