import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type LoopbackServer, startLoopbackServer } from "../../../src/main/browser/loopback-server";
import { DeskHost } from "../../../src/main/core/desk-host";
import type { ServerMessage } from "../../../src/shared/web-protocol";

let server: LoopbackServer;
let host: DeskHost;

beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), "pi-desk-renderer-"));
  writeFileSync(join(rendererDir, "index.html"), "<!doctype html>");
  host = await DeskHost.create({ shell: "browser", version: "test" });
  server = await startLoopbackServer({ host, rendererDir, token: "t" });
});
afterAll(async () => {
  await server.close();
  await host.dispose();
});

/** Frames a hostile client might send: text, JSON of the right and wrong shapes, binary. */
const frame = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc
    .record({
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
      method: fc.oneof(
        fc.constantFrom("getState", "decide", "prompt", "__proto__", "openWorkspace"),
        fc.string(),
      ),
      params: fc.anything({ maxDepth: 2 }),
    })
    .map((value) => JSON.stringify(value) ?? "null"),
  fc.uint8Array({ maxLength: 100 }).map((bytes) => Buffer.from(bytes)),
);

describe("the browser host under fuzzed frames", () => {
  it("answers every frame, stays up, and opens nothing", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/`, ["pi-desk.v1", "pi-desk-token.t"], {
      origin: `http://127.0.0.1:${server.port}`,
    });
    const replies: ServerMessage[] = [];
    ws.on("message", (data) => replies.push(JSON.parse(data.toString())));
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const frames = fc.sample(frame, { numRuns: 400, seed: 42 });
    for (const data of frames) ws.send(data);
    ws.send(JSON.stringify({ id: 999_999, method: "getState" }));
    for (let i = 0; i < 500 && !replies.some((r) => r.kind === "reply" && r.id === 999_999); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(replies.filter((r) => r.kind === "reply")).toHaveLength(frames.length + 1);
    expect(replies.at(-1)).toMatchObject({ ok: true, id: 999_999, result: { workspace: null } });
    expect(host.state().workspace).toBeNull();
    ws.close();
  });
});
