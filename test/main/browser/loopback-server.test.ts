import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect as connectTcp } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type LoopbackServer, startLoopbackServer } from "../../../src/main/browser/loopback-server";
import { DeskHost } from "../../../src/main/core/desk-host";
import { MAX_CLIENT_MESSAGE_BYTES, type ServerMessage } from "../../../src/shared/web-protocol";

let server: LoopbackServer;
let host: DeskHost;
let origin: string;

beforeEach(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), "pi-desk-renderer-"));
  writeFileSync(join(rendererDir, "index.html"), "<!doctype html><title>Pi Desk</title>");
  host = await DeskHost.create({ shell: "browser", version: "test" });
  server = await startLoopbackServer({ host, rendererDir, token: "secret-token", maxConnections: 3 });
  origin = `http://127.0.0.1:${server.port}`;
});

afterEach(async () => {
  await server.close();
  await host.dispose();
});

/** Opens a WebSocket the way a page would; resolves once open, rejects with the refusal's status. */
function connect(options: { token?: string | null; origin?: string; host?: string } = {}) {
  const token = options.token === undefined ? "secret-token" : options.token;
  const protocols = token === null ? ["pi-desk.v1"] : ["pi-desk.v1", `pi-desk-token.${token}`];
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/`, protocols, {
    origin: options.origin ?? origin,
    headers: options.host ? { host: options.host } : {},
  });
  const messages: ServerMessage[] = [];
  ws.on("message", (data) => messages.push(JSON.parse(data.toString())));
  const opened = new Promise<WebSocket>((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    ws.once("error", reject);
  });
  return { ws, messages, opened };
}

async function waitFor<T>(find: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("timed out waiting");
}

describe("the browser host", () => {
  it("listens on loopback only and prints a URL with the token in the fragment", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=secret-token`);
  });

  it("answers calls and pushes events to a page that has the token", async () => {
    const { ws, messages, opened } = connect();
    await opened;
    ws.send(JSON.stringify({ id: 1, method: "getState" }));
    const reply = await waitFor(() => messages.find((m) => m.kind === "reply" && m.id === 1));
    expect(reply).toMatchObject({ ok: true, result: { shell: "browser", workspace: null } });

    const dir = mkdtempSync(join(tmpdir(), "pi-desk-open-"));
    ws.send(JSON.stringify({ id: 2, method: "openWorkspace", params: { path: dir } }));
    const event = await waitFor(() => messages.find((m) => m.kind === "event"));
    expect(event).toMatchObject({
      event: { type: "workspaces-changed", workspaces: [{ path: dir }], seq: 1 },
    });
    ws.close();
  });

  it.each([
    ["no token", { token: null }],
    ["a wrong token", { token: "guess" }],
    ["a token one character short", { token: "secret-toke" }],
    ["another site's Origin", { origin: "https://evil.example" }],
    ["a look-alike Origin", { origin: "http://127.0.0.1.evil.example" }],
    ["a rebinding Host header", { host: "evil.example:80" }],
  ])("refuses a connection with %s and changes nothing", async (_label, options) => {
    const { opened } = connect(options);
    await expect(opened).rejects.toThrow(/refused with (403|421)/);
    expect(host.state().workspace).toBeNull();
  });

  it("refuses the token in the wrong place (the query string)", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/?token=secret-token`, ["pi-desk.v1"], { origin });
    const status = await new Promise((resolve) =>
      ws.once("unexpected-response", (_q, res) => resolve(res.statusCode)),
    );
    expect(status).toBe(403);
  });

  it("answers malformed messages with a clear error and keeps the connection", async () => {
    const { ws, messages, opened } = connect();
    await opened;
    ws.send("not json");
    ws.send(JSON.stringify({ id: "1", method: "getState" }));
    ws.send(JSON.stringify({ id: 3, method: "nope" }));
    ws.send(JSON.stringify({ id: 4, method: "openWorkspace", params: { path: 12 } }));
    ws.send(JSON.stringify({ id: 5, method: "getState" }));
    await waitFor(() => (messages.length >= 5 ? true : undefined));
    expect(messages[0]).toMatchObject({
      ok: false,
      id: null,
      error: { message: expect.stringContaining("JSON") },
    });
    expect(messages[1]).toMatchObject({ ok: false, id: null });
    expect(messages[2]).toMatchObject({ ok: false, id: 3, error: { code: "unknown-method" } });
    expect(messages[3]).toMatchObject({ ok: false, id: 4, error: { code: "invalid-params" } });
    expect(messages[4]).toMatchObject({ ok: true, id: 5 });
    ws.close();
  });

  it("closes a connection that sends an oversized frame", async () => {
    const { ws, opened } = connect();
    await opened;
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    ws.send("x".repeat(MAX_CLIENT_MESSAGE_BYTES + 1));
    expect(await closed).toBe(1009);
  });

  it("refuses connections past its limit", async () => {
    const open = await Promise.all([connect().opened, connect().opened, connect().opened]);
    await expect(connect().opened).rejects.toThrow(/refused with 403/);
    for (const ws of open) ws.close();
  });

  it("serves the page with a strict CSP, and refuses a foreign Host header", async () => {
    const get = (headers: Record<string, string>) =>
      new Promise<{ status?: number; csp?: string | string[] }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port: server.port, path: "/", headers }, (res) => {
          res.resume();
          resolve({ status: res.statusCode, csp: res.headers["content-security-policy"] });
        });
        req.on("error", reject);
        req.end();
      });
    const page = await get({});
    expect(page.status).toBe(200);
    expect(page.csp).toContain("script-src 'self'");
    expect(page.csp).not.toContain("unsafe-eval");
    expect((await get({ host: "attacker.example" })).status).toBe(421);
  });
});

describe("the browser host's bind address", () => {
  it("binds to loopback by default, so the machine's other addresses refuse connections", async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((net) => net && net.family === "IPv4" && !net.internal)?.address;
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
    if (!external) return; // a machine with loopback only has nothing else to refuse on
    const reached = await new Promise<string>((resolve) => {
      const socket = connectTcp({ host: external, port: server.port }, () => resolve("connected"));
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    });
    expect(reached).toBe("ECONNREFUSED");
  });
});
