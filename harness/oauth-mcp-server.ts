import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A streamable-HTTP MCP server behind OAuth, on loopback, as a remote server like Sentry's would be: the
 * MCP endpoint answers 401 with a `WWW-Authenticate` naming its protected resource metadata (RFC 9728)
 * until a request carries a token its authorization server issued; the authorization server (same
 * origin) has its metadata (RFC 8414), dynamic client registration, an authorize endpoint that approves
 * at once and redirects with a code (the test plays the browser by following it), and a token endpoint
 * that checks PKCE. Handwritten because the MCP SDK's server-side auth needs express, which Pi Desk does
 * not depend on; kept to what a sign-in needs.
 */
export interface OAuthMcpServer {
  /** The MCP endpoint (`…/mcp`), for mcp.json. */
  url: string;
  /** The authorization header of every `tools/call` the MCP endpoint answered. */
  calls: { tool: string; authorization: string | undefined }[];
  /** Access tokens issued so far. */
  tokens: string[];
  close(): Promise<void>;
}

/** One tool, `whoami`, answering with the bearer token it was called with. */
const TOOLS = [
  {
    name: "whoami",
    description: "Says which access token the call carried.",
    inputSchema: { type: "object", properties: {} },
  },
];

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const clients = new Map<string, string[]>();
  const codes = new Map<string, { challenge: string; clientId: string; redirectUri: string }>();
  const tokens: string[] = [];
  const calls: OAuthMcpServer["calls"] = [];
  let origin = "";
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", origin);
    const body = request.method === "POST" ? await readBody(request) : "";
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource"))
      return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (url.pathname === "/.well-known/oauth-authorization-server")
      return json(response, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        token_endpoint_auth_methods_supported: ["none"],
        code_challenge_methods_supported: ["S256"],
        authorization_response_iss_parameter_supported: true,
      });
    if (url.pathname === "/register") {
      const metadata = JSON.parse(body) as { redirect_uris: string[] };
      const clientId = `client-${randomBytes(4).toString("hex")}`;
      clients.set(clientId, metadata.redirect_uris);
      return json(response, 201, { ...metadata, client_id: clientId, token_endpoint_auth_method: "none" });
    }
    if (url.pathname === "/authorize") {
      const clientId = url.searchParams.get("client_id") ?? "";
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (!clients.get(clientId)?.includes(redirectUri))
        return json(response, 400, { error: "invalid_client" });
      const code = randomBytes(8).toString("hex");
      codes.set(code, { challenge: url.searchParams.get("code_challenge") ?? "", clientId, redirectUri });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      back.searchParams.set("iss", origin);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/token") {
      const form = new URLSearchParams(body);
      const grant = codes.get(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get("redirect_uri"))
        return json(response, 400, { error: "invalid_grant" });
      codes.delete(form.get("code") ?? "");
      const token = `token-${randomBytes(6).toString("hex")}`;
      tokens.push(token);
      return json(response, 200, { access_token: token, token_type: "Bearer", expires_in: 3600 });
    }
    if (url.pathname === "/mcp") return mcp(request, response, body);
    response.writeHead(404).end();
  };
  const mcp = (request: IncomingMessage, response: ServerResponse, body: string) => {
    const authorization = request.headers.authorization;
    if (!authorization || !tokens.includes(authorization.replace(/^Bearer /, ""))) {
      response
        .writeHead(401, {
          "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
      return;
    }
    // No server-to-client stream and no sessions: every answer comes in the POST's own response.
    if (request.method !== "POST") return void response.writeHead(405).end();
    const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
    if (message.id === undefined) return void response.writeHead(202).end();
    if (message.method === "initialize")
      return json(response, 200, {
        jsonrpc: "2.0",
        id: message.id,
        result: {
          protocolVersion: "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "oauth-test", version: "1.0.0" },
        },
      });
    if (message.method === "tools/list")
      return json(response, 200, { jsonrpc: "2.0", id: message.id, result: { tools: TOOLS } });
    if (message.method === "tools/call") {
      calls.push({ tool: message.params?.name ?? "", authorization });
      return json(response, 200, {
        jsonrpc: "2.0",
        id: message.id,
        result: { content: [{ type: "text", text: `Called with ${authorization}` }] },
      });
    }
    return json(response, 200, {
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32601, message: `No method ${message.method}` },
    });
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    calls,
    tokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Plays the person's browser: opens the authorization page and returns where it redirected to. */
export async function approveInBrowser(authorizationUrl: string): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (response.status !== 302 || !location)
    throw new Error(`The authorization page answered ${response.status}: ${await response.text()}`);
  return location;
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => resolve(text));
    request.on("error", reject);
  });
}
