import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandRequest } from "../../../../src/main/run-command/run-command";
import type { ApprovalDecision } from "../../../../src/shared/commands";
import { makeWorkspace, runTool } from "../run-command-harness";
import { onLinux } from "./sandbox-harness";

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((socket) => socket.end("hello from the host\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Connects with bash's /dev/tcp and prints what the server says. */
const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`;

/** An approval hook that records the requests and answers with `decision`. */
function approver(decision: Record<string, unknown>) {
  const requests: CommandRequest[] = [];
  const approve = async (request: CommandRequest) => {
    requests.push(request);
    // `network` is not in the shared ApprovalDecision yet; the tool reads it defensively.
    return decision as ApprovalDecision;
  };
  return { requests, approve };
}

describe.runIf(onLinux)("run_command in the sandbox: network", () => {
  it("has no network: a server on the host's loopback cannot be reached", async () => {
    const { approve, requests } = approver({ kind: "approve" });
    const { text, details } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: { enabled: true }, approve },
      { command: connect() },
    );
    expect(requests[0]?.sandbox).toEqual({ enabled: true, network: false });
    expect(details.status).toBe("failed");
    expect(text).not.toContain("hello from the host");
    expect(text).toMatch(/Connection refused|Network is unreachable/);
  });

  it("reaches the network when the person allows it for this command, and only for it", async () => {
    const workspaceRoot = makeWorkspace();
    const allowed = approver({ kind: "approve", network: true });
    const first = await runTool(
      { workspaceRoot, sandbox: { enabled: true }, approve: allowed.approve },
      { command: connect() },
    );
    expect(first.details.status).toBe("succeeded");
    expect(first.text).toBe("hello from the host");

    const plain = approver({ kind: "approve" });
    const second = await runTool(
      { workspaceRoot, sandbox: { enabled: true }, approve: plain.approve },
      { command: connect() },
    );
    expect(second.details.status).toBe("failed");
  });

  it("ignores a network answer that is not exactly true", async () => {
    const { approve } = approver({ kind: "approve", network: "yes" });
    const { details } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: { enabled: true }, approve },
      { command: connect() },
    );
    expect(details.status).toBe("failed");
  });

  it("reaches the network when the workspace allows it, and says so in the request", async () => {
    const { approve, requests } = approver({ kind: "approve" });
    const { text } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: { enabled: true, network: true }, approve },
      { command: connect() },
    );
    // That network is the host's own: the card says this machine's services are reachable too.
    expect(requests[0]?.sandbox).toEqual({ enabled: true, network: true, localServices: true });
    expect(text).toBe("hello from the host");
  });

  it("tells the person when there is no sandbox at all", async () => {
    const { approve, requests } = approver({ kind: "approve" });
    await runTool({ workspaceRoot: makeWorkspace(), approve }, { command: "true" });
    expect(requests[0]?.sandbox).toEqual({ enabled: false, network: false });
  });
});
