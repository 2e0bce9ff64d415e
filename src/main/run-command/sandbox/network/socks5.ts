import { createServer, type Server } from "node:net";
import type { HostGate, RefusalKind } from "./host-gate";

/** SOCKS5 reply codes (RFC 1928 §6). */
const REPLY: Record<RefusalKind | "ok" | "command" | "address-type", number> = {
  ok: 0x00,
  "bad-request": 0x01,
  "not-allowed": 0x02,
  busy: 0x01,
  unreachable: 0x04,
  command: 0x07,
  "address-type": 0x08,
};

/** The most a greeting and a request can take (2 + 255 methods; 4 + 1 + 255 name + 2 port). */
const MAX_HANDSHAKE_BYTES = 600;

/** How long a client may take to send its greeting and request. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * The SOCKS5 side of a command's proxy (`ALL_PROXY=socks5h://…`): CONNECT by host name only. A request by
 * IP address is refused (the rules are by name, and a tool that resolved the name itself found no DNS in
 * the sandbox anyway); BIND and UDP ASSOCIATE are refused; no authentication is offered or needed (the
 * socket is the command's own).
 */
export function createSocks5Proxy(gate: HostGate): Server {
  return createServer((client) => {
    client.on("error", () => {});
    client.setTimeout(HANDSHAKE_TIMEOUT_MS, () => {
      gate.refuse("?", 0, "socks5", "the SOCKS5 handshake did not finish in time.");
      client.destroy();
    });
    let buffer = Buffer.alloc(0);
    let stage: "greeting" | "request" | "deciding" = "greeting";
    const fail = (why: string, code: number) => {
      gate.refuse("?", 0, "socks5", why);
      if (stage === "greeting") client.end(Buffer.from([0x05, 0xff]));
      else client.end(reply(code));
    };
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length > MAX_HANDSHAKE_BYTES)
        return fail("the SOCKS5 handshake is too long.", REPLY["bad-request"]);
      if (stage === "greeting") {
        if (buffer[0] !== 0x05) return fail("it is not a SOCKS5 request.", REPLY["bad-request"]);
        if (buffer.length < 2) return;
        const count = buffer[1] as number;
        if (buffer.length < 2 + count) return;
        const methods = buffer.subarray(2, 2 + count);
        buffer = buffer.subarray(2 + count);
        if (!methods.includes(0x00)) return fail("the SOCKS5 client offers no method without a password.", 0);
        client.write(Buffer.from([0x05, 0x00]));
        stage = "request";
      }
      if (stage !== "request" || buffer.length < 5) return;
      const [version, command, , type] = buffer as unknown as number[];
      if (version !== 0x05) return fail("the SOCKS5 request is malformed.", REPLY["bad-request"]);
      let host: string;
      let end: number;
      if (type === 0x03) {
        const length = buffer[4] as number;
        end = 5 + length + 2;
        if (buffer.length < end) return;
        host = buffer.subarray(5, 5 + length).toString("latin1");
      } else if (type === 0x01 || type === 0x04) {
        end = type === 0x01 ? 4 + 4 + 2 : 4 + 16 + 2;
        if (buffer.length < end) return;
        host = type === 0x01 ? [...buffer.subarray(4, 8)].join(".") : ipv6Text(buffer.subarray(4, 20));
      } else {
        return fail("the SOCKS5 address type is unknown.", REPLY["address-type"]);
      }
      const port = buffer.readUInt16BE(end - 2);
      const rest = buffer.subarray(end);
      client.off("data", onData);
      client.pause();
      stage = "deciding";
      if (command !== 0x01) {
        gate.refuse(host, port, "socks5", "only SOCKS5 CONNECT is supported (no BIND, no UDP).");
        client.end(reply(REPLY.command));
        return;
      }
      void gate.connect(host, port, "socks5").then((opened) => {
        if ("refused" in opened) {
          client.end(reply(REPLY[opened.kind]));
          return;
        }
        const { socket, done, relay } = opened.upstream;
        if (client.destroyed) return done();
        client.setTimeout(0);
        client.write(reply(REPLY.ok));
        if (rest.length > 0) socket.write(rest);
        relay(client);
        client.resume();
      });
    };
    client.on("data", onData);
  });
}

/** A reply with the bound address left as 0.0.0.0:0 (clients ignore it for CONNECT). */
function reply(code: number): Buffer {
  return Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
}

function ipv6Text(bytes: Buffer): string {
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(bytes.readUInt16BE(i).toString(16));
  return words.join(":");
}
