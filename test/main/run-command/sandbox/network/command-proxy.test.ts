import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { dial, eventually, fakeUpstream, socksByIp, socksByName, startProxy } from "./proxy-harness";

const connectTo = (target: string, host = target) => `CONNECT ${target} HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
const get = (path = "/") => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;

describe("the command proxy, HTTP CONNECT", () => {
  it("tunnels to an allowed name, at the address it checked, and reports the bytes", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events, lookups } = await startProxy(["registry.test"]);
    const client = await dial(sockets.http);
    client.socket.write(connectTo(`registry.test:${upstream.port}`));
    await client.until(/200 Connection Established\r\n\r\n/);
    client.socket.write(
      `GET /pkg HTTP/1.1\r\nHost: registry.test:${upstream.port}\r\nConnection: close\r\n\r\n`,
    );
    const text = await client.until(/got registry.test:\d+ \/pkg/);
    expect(text).toContain("upstream 127.0.0.2");
    await client.closed;
    await eventually(() => events.some((event) => event.phase === "closed"));
    expect(lookups).toEqual(["registry.test"]);
    const closed = events.find((event) => event.phase === "closed");
    expect(closed).toMatchObject({ host: "registry.test", address: "127.0.0.2", protocol: "connect" });
    expect(closed?.bytesUp).toBeGreaterThan(40);
    expect(closed?.bytesDown).toBeGreaterThan(40);
  });

  it("passes a download of many reads through intact, and what a server says first, before the client speaks", async () => {
    // Random bytes, so a read landing on top of one not yet written (the tunnel reuses one buffer) shows.
    const body = randomBytes(6 * 1024 * 1024 + 17);
    const server = createServer((socket) => {
      socket.write("BANNER\n");
      socket.once("data", () => socket.end(body));
    });
    server.listen(0, "127.0.0.2");
    await once(server, "listening");
    const port = (server.address() as { port: number }).port;
    try {
      const { sockets, events } = await startProxy(["registry.test"]);
      const client = await dial(sockets.http);
      client.socket.write(connectTo(`registry.test:${port}`));
      await client.until(/200 Connection Established\r\n\r\nBANNER\n$/);
      const head = client.received().length;
      client.socket.write("send it\n");
      await client.closed; // the server ends the connection once it sent everything
      const digest = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
      expect(digest(client.received().subarray(head))).toBe(digest(body));
      await eventually(() => events.some((event) => event.phase === "closed"));
      expect(events.find((event) => event.phase === "closed")?.bytesDown).toBe(body.length + 7);
    } finally {
      server.close();
    }
  });

  it("refuses an unlisted host without resolving it or connecting", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events, lookups } = await startProxy(["registry.test"]);
    const client = await dial(sockets.http);
    client.socket.write(connectTo(`evil.test:${upstream.port}`));
    expect(await client.until(/\r\n\r\n.*\n/s)).toMatch(/^HTTP\/1.1 403.*not among the hosts allowed/s);
    await client.closed;
    expect(lookups).toEqual([]);
    expect(upstream.connections).toHaveLength(0);
    expect(events).toEqual([
      expect.objectContaining({ phase: "refused", host: "evil.test", protocol: "connect" }),
    ]);
  });

  it("refuses a CONNECT whose Host header names another host", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events } = await startProxy(["registry.test"]);
    const client = await dial(sockets.http);
    client.socket.write(connectTo(`registry.test:${upstream.port}`, `evil.test:${upstream.port}`));
    expect(await client.until(/\r\n\r\n.*\n/s)).toMatch(/^HTTP\/1.1 400.*Host header/s);
    expect(upstream.connections).toHaveLength(0);
    expect(events[0]).toMatchObject({ phase: "refused", host: "registry.test" });
  });

  it("refuses a CONNECT by IP address, and a name longer than 253 characters", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events } = await startProxy(["registry.test", "*.registry.test"]);
    const byIp = await dial(sockets.http);
    byIp.socket.write(connectTo(`127.0.0.2:${upstream.port}`));
    expect(await byIp.until(/\r\n\r\n.*\n/s)).toMatch(/^HTTP\/1.1 403.*by IP address/s);
    const long = `${`${"a".repeat(60)}.`.repeat(4)}registry.test`;
    const byLongName = await dial(sockets.http);
    byLongName.socket.write(connectTo(`${long}:${upstream.port}`));
    expect(await byLongName.until(/\r\n\r\n.*\n/s)).toMatch(/^HTTP\/1.1 400.*longer than 253/s);
    expect(upstream.connections).toHaveLength(0);
    expect(events.map((event) => event.phase)).toEqual(["refused", "refused"]);
  });

  it("refuses an allowed name that resolves to loopback unless loopback targets are allowed", async () => {
    const upstream = await fakeUpstream("127.0.0.1");
    const { sockets, events } = await startProxy(["loopback.test"], { allowLoopbackTargets: false });
    const client = await dial(sockets.http);
    client.socket.write(connectTo(`loopback.test:${upstream.port}`));
    expect(await client.until(/\r\n\r\n.*\n/s)).toMatch(/^HTTP\/1.1 403.*resolves to 127\.0\.0\.1/s);
    expect(upstream.connections).toHaveLength(0);
    expect(events[0]).toMatchObject({ phase: "refused", host: "loopback.test" });
  });

  it("answers an unparseable request with 400, records it, and keeps serving", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events } = await startProxy(["registry.test"]);
    const garbage = await dial(sockets.http);
    garbage.socket.write("\x16\x03\x01\x02\x00 not http at all\r\n\r\n");
    expect(await garbage.until(/\r\n\r\n/)).toMatch(/^HTTP\/1.1 400/);
    expect(events[0]).toMatchObject({ phase: "refused", host: "?" });
    const next = await dial(sockets.http);
    next.socket.write(
      `GET http://registry.test:${upstream.port}/ok HTTP/1.1\r\nHost: registry.test:${upstream.port}\r\n\r\n`,
    );
    expect(await next.until(/got registry.test:\d+ \/ok/)).toMatch(/^HTTP\/1.1 200/);
  });
});

describe("the command proxy, plain HTTP", () => {
  it("forwards an absolute-form request to an allowed name in origin form", async () => {
    const upstream = await fakeUpstream("127.0.0.3");
    const { sockets, events } = await startProxy(["files.test"]);
    const client = await dial(sockets.http);
    client.socket.write(
      `GET http://files.test:${upstream.port}/a?b=1 HTTP/1.1\r\nHost: files.test:${upstream.port}\r\nProxy-Authorization: x\r\n\r\n`,
    );
    expect(await client.until(/got files.test:\d+ \/a\?b=1/)).toMatch(/^HTTP\/1.1 200/);
    await eventually(() => events.some((event) => event.phase === "closed"));
    expect(events.find((e) => e.phase === "closed")).toMatchObject({ host: "files.test", protocol: "http" });
  });

  it("refuses a request whose Host header names another host, and an unlisted one", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets } = await startProxy(["registry.test"]);
    const mismatch = await dial(sockets.http);
    mismatch.socket.write(`GET http://registry.test:${upstream.port}/ HTTP/1.1\r\nHost: evil.test\r\n\r\n`);
    expect(await mismatch.until(/Host header/)).toMatch(/^HTTP\/1.1 400/);
    const unlisted = await dial(sockets.http);
    unlisted.socket.write(
      `GET http://evil.test:${upstream.port}/ HTTP/1.1\r\nHost: evil.test:${upstream.port}\r\n\r\n`,
    );
    expect(await unlisted.until(/not among/)).toMatch(/^HTTP\/1.1 403/);
    const https = await dial(sockets.http);
    https.socket.write(
      `GET https://registry.test:${upstream.port}/ HTTP/1.1\r\nHost: registry.test:${upstream.port}\r\n\r\n`,
    );
    expect(await https.until(/through CONNECT/)).toMatch(/^HTTP\/1.1 400/);
    const upgrade = await dial(sockets.http);
    upgrade.socket.write(
      `GET http://registry.test:${upstream.port}/ws HTTP/1.1\r\nHost: registry.test:${upstream.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
    );
    expect(await upgrade.until(/not supported/)).toMatch(/^HTTP\/1.1 400/);
    const originForm = await dial(sockets.http);
    originForm.socket.write(get());
    expect(await originForm.until(/in full/)).toMatch(/^HTTP\/1.1 400/);
    expect(upstream.connections).toHaveLength(0);
  });
});

describe("the command proxy, SOCKS5", () => {
  it("connects by an allowed name", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets } = await startProxy(["registry.test"]);
    const client = await dial(sockets.socks);
    client.socket.write(socksByName("registry.test", upstream.port));
    await client.until((bytes) => bytes.length >= 12);
    expect([...client.received().subarray(0, 4)]).toEqual([0x05, 0x00, 0x05, 0x00]);
    client.socket.write(`GET /s HTTP/1.1\r\nHost: registry.test\r\nConnection: close\r\n\r\n`);
    expect(await client.until(/got registry.test \/s/)).toContain("upstream 127.0.0.2");
  });

  it("refuses a request by IP, an unlisted name and a too-long name, with SOCKS reply codes", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events } = await startProxy(["registry.test", "*.registry.test"]);
    const reply = async (request: Buffer) => {
      const client = await dial(sockets.socks);
      client.socket.write(request);
      await client.closed;
      return [...client.received().subarray(2, 4)];
    };
    expect(await reply(socksByIp("127.0.0.2", upstream.port))).toEqual([0x05, 0x02]);
    expect(await reply(socksByName("evil.test", upstream.port))).toEqual([0x05, 0x02]);
    const long = `${`${"b".repeat(63)}.`.repeat(3)}${"b".repeat(48)}.registry.test`; // 254 characters
    expect(await reply(socksByName(long, upstream.port))).toEqual([0x05, 0x01]);
    expect(upstream.connections).toHaveLength(0);
    expect(events.map((event) => [event.phase, event.protocol])).toEqual([
      ["refused", "socks5"],
      ["refused", "socks5"],
      ["refused", "socks5"],
    ]);
    expect(events[0]?.reason).toMatch(/by IP address/);
  });

  it("refuses BIND and UDP ASSOCIATE", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events } = await startProxy(["registry.test"]);
    for (const command of [0x02, 0x03]) {
      const request = socksByName("registry.test", upstream.port);
      request[4] = command;
      const client = await dial(sockets.socks);
      client.socket.write(request);
      await client.closed;
      expect([...client.received().subarray(2, 4)]).toEqual([0x05, 0x07]);
    }
    expect(upstream.connections).toHaveLength(0);
    expect(events.map((event) => event.phase)).toEqual(["refused", "refused"]);
  });

  it("refuses a client that is not SOCKS5", async () => {
    const { sockets, events } = await startProxy(["registry.test"]);
    const client = await dial(sockets.socks);
    client.socket.write("GET / HTTP/1.1\r\n\r\n");
    await client.closed;
    expect(events[0]).toMatchObject({ phase: "refused", reason: expect.stringMatching(/not a SOCKS5/) });
  });
});

describe("the command proxy's limits and end", () => {
  it("caps the connections open at once and refuses the rest", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events } = await startProxy(["registry.test"], { maxConnections: 3 });
    const open = [];
    for (let i = 0; i < 3; i++) {
      const client = await dial(sockets.http);
      client.socket.write(connectTo(`registry.test:${upstream.port}`));
      await client.until(/200 Connection Established/);
      open.push(client);
    }
    const extra = await dial(sockets.http);
    extra.socket.write(connectTo(`registry.test:${upstream.port}`));
    expect(await extra.until(/\r\n\r\n.*\n/s)).toMatch(/^HTTP\/1.1 429.*too many connections/s);
    open[0]?.socket.destroy();
    await eventually(() => events.filter((event) => event.phase === "closed").length === 1);
    const after = await dial(sockets.http);
    after.socket.write(connectTo(`registry.test:${upstream.port}`));
    await after.until(/200 Connection Established/);
  });

  it("closes a flood of idle connections past four per allowed upstream, and keeps serving", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    const { sockets, events } = await startProxy(["registry.test"], { maxConnections: 2 });
    const idle: Awaited<ReturnType<typeof dial>>[] = [];
    for (let i = 0; i < 8; i++) idle.push(await dial(sockets.socks));
    const flood = await Promise.all(Array.from({ length: 4 }, () => dial(sockets.http)));
    await Promise.all(flood.map((client) => client.closed));
    expect(events.filter((event) => event.refusal === "too-many")).toHaveLength(4);
    for (const client of idle.slice(0, 2)) client.socket.destroy();
    await eventually(() => idle[1]?.socket.destroyed === true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = await dial(sockets.http);
    next.socket.write(
      `GET http://registry.test:${upstream.port}/after HTTP/1.1\r\nHost: registry.test:${upstream.port}\r\n\r\n`,
    );
    expect(await next.until(/\/after/)).toMatch(/^HTTP\/1.1 200/);
  });

  it("opens nothing for a request still waiting on DNS when the command ends", async () => {
    const upstream = await fakeUpstream("127.0.0.2");
    let answer: (addresses: string[]) => void = () => {};
    const { proxy, sockets, events } = await startProxy(["registry.test"], {
      resolveHost: () => new Promise((resolve) => (answer = resolve)),
    });
    const client = await dial(sockets.http);
    client.socket.write(connectTo(`registry.test:${upstream.port}`));
    await eventually(() => answer.toString() !== "() => {}");
    await proxy.close();
    answer(["127.0.0.2"]);
    await client.closed;
    await eventually(() => events.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upstream.connections).toHaveLength(0);
    expect(events).toEqual([expect.objectContaining({ phase: "refused", refusal: "ended" })]);
  });

  it("closes open tunnels and half-done handshakes at once when the command ends, and stops listening", async () => {
    const upstream = await fakeUpstream("127.0.0.2", () => {}); // never answers: the tunnel stays open
    const { proxy, sockets, events } = await startProxy(["registry.test"]);
    const tunnel = await dial(sockets.http);
    tunnel.socket.write(connectTo(`registry.test:${upstream.port}`));
    await tunnel.until(/200 Connection Established/);
    tunnel.socket.write("GET /slow HTTP/1.1\r\nHost: registry.test\r\n\r\n");
    const halfway = await dial(sockets.socks);
    halfway.socket.write(Buffer.from([0x05]));
    await eventually(() => upstream.connections.length === 1);
    const started = Date.now();
    await proxy.close();
    await Promise.all([tunnel.closed, halfway.closed]);
    await eventually(() => upstream.connections[0]?.destroyed === true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(events.at(-1)).toMatchObject({ phase: "closed", host: "registry.test" });
    expect(existsSync(sockets.http)).toBe(false);
    expect(existsSync(sockets.socks)).toBe(false);
  });
});
