import { describe, expect, it } from "vitest";
import { calls, commandOf, pendingApproval, runCommand, startHost, waitFor } from "./host-harness";

describe("the session host: reconnecting clients", () => {
  it("gives a client that connects late the pending approvals and the running output", async () => {
    const { host } = await startHost([
      [runCommand("c1", "for i in $(seq 1 100); do echo line$i; sleep 0.05; done"), runCommand("c2", "true")],
      [{ type: "text", text: "done" }],
    ]);
    await calls(host).prompt({ text: "go" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "c1"),
      decision: { kind: "approve" },
    });
    const c2Approval = await pendingApproval(host, "c2");
    await waitFor(() => (commandOf(host, "c1")?.totalLines ?? 0) >= 5);

    // A new client starts from getState: the snapshot holds everything.
    const state = await calls(host).getState();
    expect(state.session?.commands.c1).toMatchObject({ phase: "running" });
    expect(state.session?.commands.c1?.output).toContain("line1\nline2");
    expect(state.session?.commands.c2).toMatchObject({ phase: "pending", approvalId: c2Approval });
    expect(
      state.session?.transcript.filter((item) => item.kind === "command").map((item) => item.id),
    ).toEqual(["c1", "c2"]);
    // ...and can decide and cancel as before.
    await calls(host).decide({ approvalId: c2Approval, decision: { kind: "approve" } });
    await calls(host).cancelCommand({ commandId: "c1" });
    await waitFor(
      () => commandOf(host, "c1")?.phase === "cancelled" && commandOf(host, "c2")?.phase === "succeeded",
    );
  });
});
