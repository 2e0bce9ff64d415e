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

  it("records what a local server's call changed in the folder, like a command: on its card and for the model", async () => {
    const { host, workspace } = await startHost([
      [write("w1", "notes.md", "one\ntwo\n")],
      [{ type: "text", text: "Done." }],
    ]);
    writeUserMcp({ files: { command: process.execPath, args: [FILESYSTEM_SERVER, workspace] } });
    await calls(host).newSession({});
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    await calls(host).prompt({ text: "write notes" });
    const approvalId = await waitFor(() => host.state().session?.mcpCalls?.w1?.approvalId);
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    await settled(host);
    const changes = host.state().session?.mcpCalls?.w1?.changes;
    expect(changes?.recorded).toBe(true);
    expect(changes?.recorded && changes.files.map((file) => [file.path, file.kind, file.added])).toEqual([
      ["notes.md", "added", 2],
    ]);
    const told = host.agentOf()?.messages.find((message) => message.role === "toolResult");
    expect(JSON.stringify(told)).toContain("Files changed: A notes.md");
    // Undo puts the folder back, as for a command.
    await calls(host).undoCommand({ commandId: "w1" });
    expect(existsSync(join(workspace, "notes.md"))).toBe(false);
  });
});
