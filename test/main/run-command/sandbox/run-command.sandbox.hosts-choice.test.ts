import { describe, expect, it } from "vitest";
import { BackgroundCommands } from "../../../../src/main/run-command/background/background-commands";
import type { HostDecisionEvent } from "../../../../src/main/run-command/sandbox/network/host-gate";
import { makeWorkspace, runTool } from "../run-command-harness";
import { files, hostsOnly, registry, run, serveUpstreams } from "./hosts-harness";
import { onLinux } from "./sandbox-harness";

serveUpstreams();

describe.runIf(onLinux)("run_command in the sandbox: allowed hosts for a background command", () => {
  it("keeps its proxy for its whole life, and ends it, tunnels and all, when it stops", async () => {
    const commands = new BackgroundCommands({ onState: () => {}, onOutput: () => {}, onEnd: () => {} });
    const events: HostDecisionEvent[] = [];
    const before = registry.connections.length;
    try {
      const { details } = await runTool(
        {
          workspaceRoot: makeWorkspace(),
          sandbox: hostsOnly(["registry.test"]),
          onHostDecision: (_id, event) => events.push(event),
          background: { commands, readinessMs: 10_000 },
        },
        {
          command:
            `echo started; curl -sS -N --proxytunnel http://registry.test:${registry.port}/slow > /dev/null & ` +
            `while true; do curl -fsS http://registry.test:${registry.port}/bg > /dev/null; sleep 0.2; done`,
          background: true,
        } as never,
      );
      expect(details.status).toBe("background");
      // Still reaching the host after run_command returned.
      const returnedAt = events.length;
      const deadline = Date.now() + 5000;
      while (events.length < returnedAt + 4 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(events.length).toBeGreaterThanOrEqual(returnedAt + 4);
      const slow = registry.connections.slice(before).find((socket) => !socket.destroyed);
      expect(slow).toBeDefined();
      await commands.stop("call-1", "person");
      const closedBy = Date.now() + 2000;
      while (!slow?.destroyed && Date.now() < closedBy) await new Promise((r) => setTimeout(r, 20));
      expect(slow?.destroyed).toBe(true);
      const atStop = events.length;
      await new Promise((r) => setTimeout(r, 500));
      expect(events.length).toBe(atStop);
    } finally {
      await commands.stopAll("quit");
    }
  });
});

describe.runIf(onLinux)("run_command in the sandbox: the person's network choice", () => {
  it("offers allowed hosts by default when the workspace lists some, else off; the agent's asks are shown", async () => {
    const listed = await run(hostsOnly(["registry.test"]), "true", {
      decision: { kind: "approve" },
      network: ["files.test"],
    });
    expect(listed.requests[0]?.network).toEqual({
      mode: "hosts",
      allowedHosts: ["registry.test"],
      askedHosts: ["files.test"],
      hostRules: true,
    });
    expect(listed.requests[0]?.sandbox).toEqual({ enabled: true, network: false });
    const empty = await run(hostsOnly([]), "true", { decision: { kind: "approve" } });
    expect(empty.requests[0]?.network.mode).toBe("off");
  });

  it("the agent's asked hosts are not reachable unless the person grants them", async () => {
    const command = `curl -fsS http://files.test:${files.port}/asked`;
    const asked = await run(hostsOnly(["registry.test"]), command, {
      decision: { kind: "approve" },
      network: ["files.test"],
    });
    expect(asked.details.status).toBe("failed");
    expect(asked.details.hosts?.[0]).toMatchObject({ host: "files.test", allowed: false });

    const granted = await run(hostsOnly(["registry.test"]), command, {
      decision: { kind: "approve", network: { mode: "hosts", grantedHosts: ["files.test"] } },
      network: ["files.test"],
    });
    expect(granted.details.status).toBe("succeeded");
    expect(granted.text).toContain("/asked");
  });

  it("the person can turn the network off for one command, or give it all of it", async () => {
    const command = `curl -fsS --max-time 5 http://registry.test:${registry.port}/choice`;
    const off = await run(hostsOnly(["registry.test"]), command, {
      decision: { kind: "approve", network: { mode: "off" } },
    });
    expect(off.details.status).toBe("failed");
    expect(off.events).toEqual([]);
    expect(off.text).not.toContain("/choice");
    // Full network: no proxy variables, the host's own loopback (where the fake upstream is) is reachable.
    const full = await run(
      hostsOnly(["registry.test"]),
      `curl -sS http://127.0.0.2:${registry.port}/full; env | grep -ci proxy`,
      {
        decision: { kind: "approve", network: true },
      },
    );
    expect(full.text).toContain("/full");
    expect(full.events).toEqual([]);
  });

  it("refuses, and does not run, an asked host that is not a valid entry", async () => {
    const { details, text } = await run(hostsOnly(["registry.test"]), "touch ran", {
      decision: { kind: "approve" },
      network: ["*"],
    });
    expect(details.status).toBe("refused");
    expect(text).toContain('"*" cannot be an allowed host');
  });
});
