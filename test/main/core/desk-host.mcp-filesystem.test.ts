import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { calls, settled, startHost, waitFor } from "./host-harness";
import { agentFolder, FILESYSTEM_SERVER, writeUserMcp } from "./mcp-harness";

afterEach(() => rmSync(join(agentFolder(), "mcp.json"), { force: true }));

const write = (id: string, path: string, content: string) => ({
  type: "toolCall" as const,
  id,
  name: "mcp__files__write_file",
  arguments: { path, content },
});

describe("the host: server-filesystem, a server that writes files", () => {
  it("writes nothing on Deny, and writes the file only once the person approves", async () => {
    const { host, workspace } = await startHost([
      [write("w1", "denied.txt", "no")],
      [write("w2", "approved.txt", "yes\n")],
      [{ type: "text", text: "Done." }],
    ]);
    // The server is given the workspace as its one allowed folder, as a person's mcp.json would.
    writeUserMcp({ files: { command: process.execPath, args: [FILESYSTEM_SERVER, workspace] } });
    await calls(host).newSession({});
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    await calls(host).prompt({ text: "write two files" });
    const first = await waitFor(() => host.state().session?.mcpCalls?.w1?.approvalId);
    expect(host.state().session?.mcpCalls?.w1?.hints).toContain("destructive");
    await calls(host).decide({ approvalId: first, decision: { kind: "deny", reason: "no" } });
    const second = await waitFor(() => host.state().session?.mcpCalls?.w2?.approvalId);
    expect(existsSync(join(workspace, "denied.txt"))).toBe(false);
    expect(existsSync(join(workspace, "approved.txt"))).toBe(false);
    await calls(host).decide({ approvalId: second, decision: { kind: "approve" } });
    await settled(host);
    expect(readFileSync(join(workspace, "approved.txt"), "utf8")).toBe("yes\n");
    expect(existsSync(join(workspace, "denied.txt"))).toBe(false);
  });
});
