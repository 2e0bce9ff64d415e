import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../../harness/free-port";
import { calls, settled, startHost, waitFor } from "./host-harness";
import { agentFolder, EVERYTHING_SERVER, writeUserMcp } from "./mcp-harness";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  rmSync(join(agentFolder(), "mcp.json"), { force: true });
});

/** server-everything over streamable HTTP on a free loopback port, as a remote server would be. */
async function startHttpServer(): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_SERVER, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  started.push(child);
  await new Promise<void>((resolve, reject) => {
    let said = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("listening on port")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`The HTTP server exited with ${code}: ${said}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

describe("the host: an MCP server over streamable HTTP", () => {
  it("connects it, and its calls wait at the gate like a local server's", async () => {
    const url = await startHttpServer();
    writeUserMcp({ remote: { url } });
    const { host } = await startHost([
      [{ type: "toolCall", id: "h1", name: "mcp__remote__echo", arguments: { message: "over http" } }],
      [{ type: "text", text: "Done." }],
    ]);
    const server = await waitFor(() =>
      host.state().session?.mcp?.servers.find((one) => one.name === "remote" && one.status === "connected"),
    );
    expect(server.transport).toBe("http");
    await calls(host).prompt({ text: "echo over http" });
    const approvalId = await waitFor(() => host.state().session?.mcpCalls?.h1?.approvalId);
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await settled(host);
    expect(host.state().session?.mcpCalls?.h1).toMatchObject({
      status: "done",
      server: "remote",
      result: expect.stringContaining("Echo: over http"),
    });
  });
});
