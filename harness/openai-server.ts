import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/*
 * A model server on 127.0.0.1 that speaks the OpenAI Chat Completions streaming protocol, for specs and
 * benchmarks that take Pi's real provider path (no scripted model): POST /v1/chat/completions with
 * `stream: true`, answered with Server-Sent Events of `chat.completion.chunk` objects and `data: [DONE]`.
 * No imports beyond node:, so the bench can load it directly.
 */

/** One request the server received. */
export interface ModelRequest {
  /** The model id asked for. */
  model: string;
  /** The conversation sent (OpenAI message objects). */
  messages: { role: string; content?: unknown; tool_call_id?: string }[];
  /** The Authorization header, to check the key Pi sent. */
  authorization: string | undefined;
  /** The names of the tools offered to the model. */
  tools: string[];
}

/** The tokens a reply says it used, as a provider reports them in its stream's last chunk. */
export interface ReplyUsage {
  prompt: number;
  completion: number;
}

/** How the server answers one request. */
export type ModelReply =
  /** Streams text, then stops; at `charsPerSecond` if given (4 characters a token), else at once. */
  | { text: string; charsPerSecond?: number; usage?: ReplyUsage }
  /** Streams a tool call (and text before it, if any), then stops for the tool's result. */
  | {
      text?: string;
      toolCall: { id: string; name: string; arguments: Record<string, unknown> };
      usage?: ReplyUsage;
    }
  /** Fails with this HTTP status, a JSON body and headers (e.g. `retry-after`). */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Drops the connection without an answer (no status: a network failure). */
  | { hangUp: true };

/**
 * Decides each reply from the request and its index (0 for the first request the server got); a promise
 * holds the request open until it settles (to look at the UI while a request is in flight).
 */
export type ModelReplies = (request: ModelRequest, index: number) => ModelReply | Promise<ModelReply>;

/** A running model server. */
export interface OpenAiServer {
  /** The `baseUrl` to give Pi: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Every chat request received so far, in order. */
  requests: ModelRequest[];
  /** Replaces how it answers from the next request on. */
  setReplies(replies: ModelReplies): void;
  /**
   * Stops listening on its port (and drops kept-alive connections), so a request is refused, until
   * called again with false, when it listens on the same port again.
   */
  refuseConnections(refuse: boolean): Promise<void>;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Points Pi's agent folder at a loopback model server the way a person configures a local one: models.json
 * names the provider `local` (`openai-completions` at `baseUrl`, model `m1` unless `models` says otherwise)
 * and settings.json makes its first model Pi's default, with `settings` added.
 */
export function writeLocalProvider(
  agentDir: string,
  baseUrl: string,
  options: { settings?: Record<string, unknown>; provider?: Record<string, unknown>; models?: object[] } = {},
): void {
  const models = options.models ?? [{ id: "m1", name: "M1" }];
  const provider = { baseUrl, api: "openai-completions", apiKey: "test-key", ...options.provider };
  const withLimits = models.map((model) => ({ contextWindow: 32000, maxTokens: 4096, ...model }));
  writeFileSync(
    join(agentDir, "models.json"),
    JSON.stringify({ providers: { local: { ...provider, models: withLimits } } }),
  );
  const first = (models[0] as { id: string }).id;
  writeFileSync(
    join(agentDir, "settings.json"),
    JSON.stringify({ defaultProvider: "local", defaultModel: first, ...options.settings }),
  );
}

/** Starts a server on a free loopback port. */
export async function startOpenAiServer(replies: ModelReplies): Promise<OpenAiServer> {
  let answer = replies;
  const requests: ModelRequest[] = [];
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `test server: ${String(error)}` } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `No route ${req.method} ${req.url}` } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Pick<
      ModelRequest,
      "model" | "messages"
    > & {
      tools?: { function?: { name?: string } }[];
    };
    const request: ModelRequest = {
      model: body.model,
      messages: body.messages,
      authorization: req.headers.authorization,
      tools: (body.tools ?? []).flatMap((tool) => (tool.function?.name ? [tool.function.name] : [])),
    };
    requests.push(request);
    const reply = await answer(request, requests.length - 1);
    if ("hangUp" in reply) {
      req.socket.destroy();
      return;
    }
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(reply.body === undefined ? "" : JSON.stringify(reply.body));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const id = `chatcmpl-${requests.length}`;
    const send = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created: Math.floor(Date.now() / 1000),
          model: request.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`,
      );
    send({ role: "assistant", content: "" });
    const text = reply.text ?? "";
    const pace = "charsPerSecond" in reply ? reply.charsPerSecond : undefined;
    if (pace) {
      // A piece every 10 ms, each as many characters as the pace allows: a model's steady stream.
      const started = performance.now();
      for (let sent = 0; sent < text.length; ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        const due = Math.min(text.length, Math.round(((performance.now() - started) / 1000) * pace));
        if (due > sent) send({ content: text.slice(sent, due) });
        sent = Math.max(sent, due);
      }
    } else {
      // In a few pieces, as a model streams.
      for (const piece of text.match(/.{1,12}/gs) ?? []) send({ content: piece });
    }
    if ("toolCall" in reply) {
      const call = reply.toolCall;
      send({
        tool_calls: [
          {
            index: 0,
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          },
        ],
      });
      send({}, "tool_calls");
    } else {
      send({}, "stop");
    }
    if (reply.usage) {
      const { prompt, completion } = reply.usage;
      const usage = {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
      };
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", model: request.model, choices: [], usage })}\n\n`,
      );
    }
    res.end("data: [DONE]\n\n");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setReplies: (next) => {
      answer = next;
    },
    refuseConnections: async (refuse) => {
      if (refuse === server.listening) {
        if (refuse) {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        } else {
          await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
        }
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (server.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}

/** An OpenAI-style error reply: `{"error":{"message","type","code"}}` with the status, as OpenAI sends it. */
export function errorReply(status: number, message: string, headers?: Record<string, string>): ModelReply {
  // The type and code OpenAI gives each status; Pi reads them too (it retries a body saying "server_error").
  const [type, code] =
    status >= 500
      ? ["server_error", null]
      : status === 429
        ? ["requests", "rate_limit_exceeded"]
        : status === 404
          ? ["invalid_request_error", "model_not_found"]
          : status === 401
            ? ["invalid_request_error", "invalid_api_key"]
            : ["invalid_request_error", null];
  return { status, body: { error: { message, type, param: null, code } }, headers };
}
