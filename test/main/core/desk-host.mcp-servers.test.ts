import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { calls, settled, startHost, waitFor } from "./host-harness";
import { agentFolder, everythingServer, processesMarked, writeUserMcp } from "./mcp-harness";

afterEach(() => {
  rmSync(join(agentFolder(), "mcp.json"), { force: true });
  rmSync(join(agentFolder(), "trust.json"), { force: true });
  delete process.env.PI_DESK_TEST_HOST_ONLY;
  delete process.env.PI_DESK_TEST_NAMED;
});

describe("the host: the person's MCP servers", () => {
  it("connects the user-level servers, and gives a stdio server only the variables its configuration names", async () => {
    const marker = `env-${process.pid}-${Date.now()}`;
    process.env.PI_DESK_TEST_HOST_ONLY = "host-secret";
    process.env.PI_DESK_TEST_NAMED = "named-value";
    // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp.json's own syntax for a variable of the host.
    writeUserMcp({ everything: everythingServer(marker, { GIVEN: "${PI_DESK_TEST_NAMED}" }) });
    const { host } = await startHost([
      [{ type: "toolCall", id: "env1", name: "mcp__everything__get_env", arguments: {} }],
      [{ type: "text", text: "Read the environment." }],
    ]);
    const server = await waitFor(() =>
      host
        .state()
        .session?.mcp?.servers.find((one) => one.name === "everything" && one.status === "connected"),
    );
    expect(server.tools).toBeGreaterThan(5);
    await calls(host).prompt({ text: "what does the server see?" });
    const approvalId = await waitFor(() => host.state().session?.mcpCalls?.env1?.approvalId);
    await calls(host).decide({ approvalId, decision: { kind: "approve" } });
    const call = await waitFor(() => {
      const found = host.state().session?.mcpCalls?.env1;
      return found?.status === "done" ? found : undefined;
    });
    const env = JSON.parse(call.result ?? "{}") as Record<string, string>;
    expect(env.GIVEN).toBe("named-value");
    expect(env.PI_DESK_MARK).toBe(marker);
    // What a process needs to start, and nothing of the host's own.
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.PI_DESK_TEST_HOST_ONLY).toBeUndefined();
    expect(env.PI_DESK_TEST_NAMED).toBeUndefined();
    expect(env.PI_DESK_DATA_DIR).toBeUndefined();
    await settled(host);
  });

  it("leaves no server process behind when the host quits", async () => {
    const marker = `quit-${process.pid}-${Date.now()}`;
    writeUserMcp({ everything: everythingServer(marker) });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    expect(processesMarked(marker).length).toBeGreaterThan(0);
    await host.dispose();
    expect(processesMarked(marker)).toEqual([]);
  });

  it("ends a chat's servers when the chat closes, and leaves another chat's running", async () => {
    const marker = `close-${process.pid}-${Date.now()}`;
    writeUserMcp({ everything: everythingServer(marker) });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    const first = host.state().chatId as string;
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    const second = await calls(host).newSession({});
    await waitFor(() => processesMarked(marker).length === 2);
    await calls(host, first).closeChat({});
    expect(processesMarked(marker)).toHaveLength(1);
    expect(second.id).not.toBe(first);
  });

  it("a server turned off in the workspace stops in its open chat and is not started by its next chats, and starts again once turned on", async () => {
    const marker = `off-${process.pid}-${Date.now()}`;
    writeUserMcp({ everything: everythingServer(marker) });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    const workspaceId = host.state().workspaces[0]?.id as string;
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    await calls(host).setMcpServerEnabled({ workspaceId, name: "everything", enabled: false });
    await waitFor(() => processesMarked(marker).length === 0);
    const off = await calls(host).newSession({});
    expect(host.state().session?.mcp?.servers[0]).toMatchObject({ status: "disabled", offInWorkspace: true });
    expect(processesMarked(marker)).toHaveLength(0);
    await calls(host, off.id).closeChat({});
    await calls(host).setMcpServerEnabled({ workspaceId, name: "everything", enabled: true });
    await calls(host).newSession({});
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    expect(host.state().session?.mcp?.servers[0]?.offInWorkspace).toBeUndefined();
  });

  it("skips the workspace's .pi/mcp.json and says so where the project is not trusted, and reads it where it is", async () => {
    const marker = `project-${process.pid}-${Date.now()}`;
    writeUserMcp({});
    const project = (workspace: string) => {
      mkdirSync(join(workspace, ".pi"), { recursive: true });
      writeFileSync(
        join(workspace, ".pi", "mcp.json"),
        JSON.stringify({ mcpServers: { "from-repo": everythingServer(marker) } }),
      );
    };
    const untrusted = await startHost([[{ type: "text", text: "ok" }]]);
    project(untrusted.workspace);
    await calls(untrusted.host).newSession({});
    const skipped = untrusted.host.state().session?.mcp;
    expect(skipped?.skippedProjectConfig).toBe(join(untrusted.workspace, ".pi", "mcp.json"));
    expect(skipped?.servers).toEqual([]);
    expect(processesMarked(marker)).toEqual([]);

    const trusted = await startHost([[{ type: "text", text: "ok" }]]);
    project(trusted.workspace);
    new ProjectTrustStore(agentFolder()).set(trusted.workspace, true);
    await calls(trusted.host).newSession({});
    await waitFor(() =>
      trusted.host
        .state()
        .session?.mcp?.servers.find((one) => one.name === "from-repo" && one.status === "connected"),
    );
    expect(trusted.host.state().session?.mcp?.skippedProjectConfig).toBeUndefined();
  });

  it("reads a worktree chat's .pi/mcp.json by its workspace's trust (the worktree's own folder is never trusted by path)", async () => {
    const marker = `worktree-${process.pid}-${Date.now()}`;
    const { host, workspace } = await startHost([[{ type: "text", text: "ok" }]], { changes: false });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd: workspace });
    mkdirSync(join(workspace, ".pi"), { recursive: true });
    writeFileSync(
      join(workspace, ".pi", "mcp.json"),
      JSON.stringify({ mcpServers: { "from-repo": everythingServer(marker) } }),
    );
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "first");
    new ProjectTrustStore(agentFolder()).set(workspace, true);
    const chat = await calls(host).newSession({ worktree: {} });
    await waitFor(() =>
      host
        .state(chat.id)
        .session?.mcp?.servers.find((one) => one.name === "from-repo" && one.status === "connected"),
    );
    expect(host.state(chat.id).session?.mcp?.skippedProjectConfig).toBeUndefined();
  });

  it("shows a server that cannot start as failed, with the reason and what to do, beside one that connected", async () => {
    const marker = `fail-${process.pid}-${Date.now()}`;
    writeUserMcp({
      everything: everythingServer(marker),
      missing: { command: "/nonexistent/mcp-server", args: [] },
      crashing: {
        command: process.execPath,
        args: ["-e", "console.error('no config file'); process.exit(3)"],
      },
      off: { ...everythingServer(marker), enabled: false },
    });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    const servers = await waitFor(() => {
      const list = host.state().session?.mcp?.servers ?? [];
      const settled = list.every((one) => one.status !== "connecting");
      return settled && list.length === 4 ? list : undefined;
    });
    const byName = Object.fromEntries(servers.map((one) => [one.name, one]));
    expect(byName.everything?.status).toBe("connected");
    expect(byName.off?.status).toBe("disabled");
    expect(byName.missing?.status).toBe("failed");
    expect(byName.missing?.error).toContain("ENOENT");
    expect(byName.missing?.error).toContain("The program was not found");
    expect(byName.crashing?.status).toBe("failed");
    expect(byName.crashing?.error).toContain("no config file");
  });

  it("shows a server whose process ended as disconnected, and Reconnect brings it back", async () => {
    const marker = `reconnect-${process.pid}-${Date.now()}`;
    writeUserMcp({ everything: everythingServer(marker) });
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    for (const pid of processesMarked(marker)) process.kill(pid, "SIGKILL");
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "disconnected");
    await calls(host).reconnectMcpServer({ name: "everything" });
    await waitFor(() => host.state().session?.mcp?.servers[0]?.status === "connected");
    expect(processesMarked(marker)).toHaveLength(1);
    await expect(calls(host).reconnectMcpServer({ name: "nope" })).rejects.toThrow(
      /no MCP server named "nope"/,
    );
  });
});
