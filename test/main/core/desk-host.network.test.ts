import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { routeRequest } from "../../../src/main/core/request-router";
import { auditFile, workspaceDataDir } from "../../../src/main/storage/data-folder";
import { settingsFile } from "../../../src/main/storage/workspace-settings";
import type { AuditEntry } from "../../../src/shared/rules";
import { assistantSaid, calls, commandOf, pendingApproval, startHost, waitFor } from "./host-harness";

const onLinux = process.platform === "linux";

/** Names the proxy resolves to fake upstreams on loopback (a test hook, as `--resolve-host` in serve). */
const NAMES: Record<string, string> = { "registry.test": "127.0.0.2", "other.test": "127.0.0.2" };
const networkTestHooks = {
  resolveHost: async (name: string) => (NAMES[name] ? [NAMES[name] as string] : []),
  allowLoopbackTargets: true,
};

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A fake registry on 127.0.0.2, answering with its Host and path. */
async function upstream(): Promise<number> {
  const server = createServer((request, response) => response.end(`upstream got ${request.url}\n`));
  server.listen(0, "127.0.0.2");
  await once(server, "listening");
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return (server.address() as { port: number }).port;
}

/** A `run_command` call that may ask for hosts. */
const call = (id: string, command: string, network?: string[]) => ({
  type: "toolCall" as const,
  id,
  name: "run_command",
  arguments: network ? { command, network } : { command },
});

describe.runIf(onLinux)("the session host: network by name", () => {
  it("keeps the workspace's allowed hosts, checked, on disk and in the limits, and refuses a bad list whole", async () => {
    const { host, root } = await startHost([[{ type: "text", text: "hi" }]]);
    const dataDir = workspaceDataDir(`${root}/data`, `${root}/repo`);
    const bad = await routeRequest(host.handlers, "setAllowedHosts", {
      workspaceId: host.state().workspace?.id,
      hosts: ["registry.npmjs.org", "*.com", "10.0.0.1"],
    });
    // Refused whole, as the call's answer: each bad entry's problem for the page, and the host's sentences.
    expect(bad).toMatchObject({
      ok: true,
      result: {
        saved: false,
        problems: [
          { id: "public-suffix", entry: "*.com", suffix: "com" },
          { id: "address", entry: "10.0.0.1" },
        ],
      },
    });
    const message = bad.ok ? (bad.result as { message: string }).message : "";
    expect(message).toContain('"*.com"');
    expect(message).toContain('"10.0.0.1"');
    expect(message).toContain("Correct or remove those entries and try again.");
    expect(host.state().limits?.sandbox.allowedHosts).toEqual([]);

    const ok = await routeRequest(host.handlers, "setAllowedHosts", {
      workspaceId: host.state().workspace?.id,
      hosts: ["registry.npmjs.org", "*.githubusercontent.com", "registry.npmjs.org"],
    });
    expect(ok).toEqual({ ok: true, result: { saved: true } });
    expect(host.state().limits?.sandbox.allowedHosts).toEqual([
      "registry.npmjs.org",
      "*.githubusercontent.com",
    ]);
    const saved = JSON.parse(readFileSync(settingsFile(dataDir), "utf8"));
    expect(saved.allowedHosts).toEqual(["registry.npmjs.org", "*.githubusercontent.com"]);
    // Turning the sandbox's network on and off keeps the list.
    await calls(host).setSandbox({ enabled: true, network: false });
    expect(host.state().limits?.sandbox.allowedHosts).toEqual([
      "registry.npmjs.org",
      "*.githubusercontent.com",
    ]);
  });

  it("offers the hosts on the card, counts them live, audits each decision, and reads the list at every call", async () => {
    const port = await upstream();
    const line = `curl -s --max-time 5 http://registry.test:${port}/a; curl -s --max-time 5 http://other.test:${port}/b; true`;
    const { host, root } = await startHost(
      [
        [call("c1", line, ["other.test"])],
        [{ type: "text", text: "first done" }],
        [call("c2", `curl -s --max-time 5 http://other.test:${port}/c`)],
        [{ type: "text", text: "all finished" }],
      ],
      { commands: { networkTestHooks } },
    );
    const dataDir = workspaceDataDir(`${root}/data`, `${root}/repo`);
    await calls(host).setAllowedHosts({ hosts: ["registry.test"] });
    await calls(host).prompt({ text: "fetch" });
    const first = await pendingApproval(host, "c1");
    expect(commandOf(host, "c1")?.network).toMatchObject({
      mode: "hosts",
      allowedHosts: ["registry.test"],
      askedHosts: ["other.test"],
      hostRules: true,
    });
    // Approved as offered: the agent's asked host is not granted unless the person grants it.
    await calls(host).decide({ approvalId: first, decision: { kind: "approve" } });
    const view = await waitFor(() => {
      const seen = commandOf(host, "c1");
      return seen?.details && seen;
    });
    expect(view.output).toContain("upstream got /a");
    expect(view.output).not.toContain("upstream got /b");
    expect(view.network?.chosen).toBe("hosts");
    const reached = view.hosts?.find((h) => h.host === "registry.test");
    const refused = view.hosts?.find((h) => h.host === "other.test");
    expect(reached).toMatchObject({ allowed: true, count: 1, port });
    expect(reached?.bytesDown).toBeGreaterThan(0);
    expect(refused).toMatchObject({ allowed: false, count: 1, refusal: "not-allowed" });

    // Allowed for the workspace: the next command reads the new list.
    await assistantSaid(host, "first done");
    // The card's "Allow for this workspace": added to the list, as the person's call reaches the host.
    const added = await routeRequest(host.handlers, "addAllowedHosts", {
      workspaceId: host.state().workspace?.id,
      hosts: ["other.test"],
    });
    expect(added).toEqual({ ok: true, result: { saved: true } });
    expect(host.state().limits?.sandbox.allowedHosts).toEqual(["registry.test", "other.test"]);
    await calls(host).prompt({ text: "again" });
    const second = await pendingApproval(host, "c2");
    expect(commandOf(host, "c2")?.network?.allowedHosts).toEqual(["registry.test", "other.test"]);
    // The decide call through the router: the choice object is part of the contract, and only it.
    for (const network of [
      { mode: "everything" },
      { mode: "hosts", grantedHosts: "other.test" },
      { mode: "off", extra: 1 },
    ]) {
      const refused = await routeRequest(host.handlers, "decide", {
        approvalId: second,
        decision: { kind: "approve", network },
      });
      expect(refused.ok ? "accepted" : refused.error.code).toBe("invalid-params");
    }
    const decided = await routeRequest(host.handlers, "decide", {
      approvalId: second,
      decision: { kind: "approve", network: { mode: "hosts" } },
    });
    expect(decided.ok).toBe(true);
    await assistantSaid(host, "all finished");
    expect(commandOf(host, "c2")?.output).toContain("upstream got /c");

    await host.dispose();
    const lines = readFileSync(auditFile(dataDir), "utf8")
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text) as AuditEntry)
      .filter((entry) => entry.kind === "host");
    const c1 = lines.filter((entry) => entry.commandId === "c1");
    expect(c1).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: "host-allowed",
          host: "registry.test",
          port,
          allowed: true,
          by: "host",
        }),
        expect.objectContaining({
          event: "host-refused",
          host: "other.test",
          port,
          allowed: false,
          refusal: "not-allowed",
          by: "policy",
          bytesUp: 0,
          bytesDown: 0,
        }),
      ]),
    );
    const allowed = c1.find((entry) => entry.event === "host-allowed");
    expect(allowed?.bytesUp).toBeGreaterThan(0);
    expect(allowed?.bytesDown).toBeGreaterThan(0);
    expect(lines.filter((entry) => entry.commandId === "c2").map((e) => e.event)).toEqual(["host-allowed"]);
  });
});
