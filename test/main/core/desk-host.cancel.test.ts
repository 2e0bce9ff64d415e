import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditFile, workspaceDataDir } from "../../../src/main/storage/data-folder";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  startHost,
  waitFor,
} from "./host-harness";

/** Live `sleep <tag>` processes (the sandbox's own command line also holds the text, so match whole args). */
function sleepers(tag: string): number {
  const out = execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([stat, ...args]) => !stat?.startsWith("Z") && args.join(" ") === `sleep ${tag}`).length;
}

describe("the session host: cancel and stop", () => {
  it("cancels one of two running commands and leaves the other running", async () => {
    const { host } = await startHost([
      [runCommand("c1", "sleep 41.1001"), runCommand("c2", "sleep 41.2002")],
      [{ type: "text", text: "After." }],
    ]);
    await calls(host).prompt({ text: "go" });
    for (const id of ["c1", "c2"])
      await calls(host).decide({
        approvalId: await pendingApproval(host, id),
        decision: { kind: "approve" },
      });
    await waitFor(
      () => commandOf(host, "c1")?.phase === "running" && commandOf(host, "c2")?.phase === "running",
    );
    await waitFor(() => sleepers("41.1001") === 1 && sleepers("41.2002") === 1);
    await calls(host).cancelCommand({ commandId: "c1" });
    await waitFor(() => commandOf(host, "c1")?.phase === "cancelled");
    expect(sleepers("41.1001")).toBe(0);
    expect(sleepers("41.2002")).toBe(1);
    expect(commandOf(host, "c2")?.phase).toBe("running");
    await calls(host).cancelCommand({ commandId: "c2" });
    await assistantSaid(host, "After.");
  });

  it("Stop resolves pending approvals as cancelled and kills running commands", async () => {
    const { host } = await startHost([
      [runCommand("c1", "sleep 42.3003"), runCommand("c2", "echo never")],
      [{ type: "text", text: "unreachable" }],
    ]);
    await calls(host).prompt({ text: "go" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "c1"),
      decision: { kind: "approve" },
    });
    await pendingApproval(host, "c2");
    await waitFor(() => sleepers("42.3003") === 1);
    await calls(host).stop();
    await waitFor(() => host.state().session?.running === false);
    expect(commandOf(host, "c1")?.phase).toBe("cancelled");
    expect(commandOf(host, "c2")?.phase).toBe("cancelled");
    expect(commandOf(host, "c2")?.approvalId).toBeUndefined();
    expect(sleepers("42.3003")).toBe(0);
  });

  it("leaves no process behind when the host closes mid-run, and keeps how the command ended", async () => {
    const { host, workspace, root } = await startHost([[runCommand("c1", "sleep 43.4004")]]);
    await calls(host).prompt({ text: "go" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "c1"),
      decision: { kind: "approve" },
    });
    await waitFor(() => sleepers("43.4004") === 1);
    const sessionFile = await waitFor(() => host.state().session?.file);
    await host.dispose();
    expect(sleepers("43.4004")).toBe(0);
    const audit = readFileSync(auditFile(workspaceDataDir(join(root, "data"), workspace)), "utf8");
    expect(audit).toContain('"event":"finished","by":"host","status":"cancelled"');
    expect(readFileSync(sessionFile, "utf8")).toContain("Command cancelled by the user");
  });
});
