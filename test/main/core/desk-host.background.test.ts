import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { auditFile, workspaceDataDir } from "../../../src/main/storage/data-folder";
import type { AuditEntry } from "../../../src/shared/rules";
import { assistantSaid, calls, commandOf, pendingApproval, startHost, waitFor } from "./host-harness";

/** Live `sleep <tag>` processes, matched on their whole argv. */
function sleepers(tag: string): number {
  const out = execFileSync("ps", ["-eo", "stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([stat, ...args]) => !stat?.startsWith("Z") && args.join(" ") === `sleep ${tag}`).length;
}

const background = (id: string, command: string) => ({
  type: "toolCall" as const,
  id,
  name: "run_command",
  arguments: { command, background: true },
});

function audit(root: string, workspace: string): AuditEntry[] {
  const file = auditFile(workspaceDataDir(join(root, "data"), workspace));
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AuditEntry);
}

describe("the session host: background commands", () => {
  it("keeps one running after the turn, stops it from the person's Cancel, and audits start and stop", async () => {
    const { host, root, workspace } = await startHost(
      [[background("bg", "sleep 51.3001")], [{ type: "text", text: "Started." }]],
      { commands: { backgroundReadinessMs: 300 } },
    );
    await calls(host).prompt({ text: "go" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "bg"),
      decision: { kind: "approve" },
    });
    await assistantSaid(host, "Started.");
    expect(commandOf(host, "bg")?.phase).toBe("background");
    expect(commandOf(host, "bg")?.background?.status).toBe("running");
    expect(sleepers("51.3001")).toBe(1);

    await calls(host).cancelCommand({ commandId: "bg" });
    await waitFor(() => commandOf(host, "bg")?.background?.status === "stopped");
    expect(commandOf(host, "bg")?.background?.stoppedBy).toBe("person");
    expect(sleepers("51.3001")).toBe(0);
    await waitFor(() => audit(root, workspace).some((entry) => entry.event === "stopped"));
    const events = audit(root, workspace).map(({ event, by }) => `${event} ${by}`);
    expect(events).toEqual(["approved person", "started host", "stopped person"]);
    const notices = host.state().session?.transcript.filter((item) => item.kind === "notice") ?? [];
    expect(notices.map((item) => (item.kind === "notice" ? item.text : ""))).toEqual([
      expect.stringContaining("It was stopped by the user"),
    ]);
    // Said again as a kind and its parameters, for the page to word in its language.
    const [notice] = notices;
    expect(notice?.kind === "notice" ? notice.say : undefined).toMatchObject({
      id: "background-ended",
      command: "sleep 51.3001",
      state: { status: "stopped", stoppedBy: "person" },
    });
  });

  it("the person can switch a pending command to the background before approving", async () => {
    const { host } = await startHost(
      [
        [
          {
            type: "toolCall",
            id: "fg",
            name: "run_command",
            arguments: { command: "sleep 51.3002", timeout: 2 },
          },
        ],
        [{ type: "text", text: "Moved." }],
      ],
      { commands: { backgroundReadinessMs: 300 } },
    );
    await calls(host).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "fg");
    expect(commandOf(host, "fg")?.runInBackground).toBe(false);
    await calls(host).decide({ approvalId, decision: { kind: "approve", background: true } });
    await assistantSaid(host, "Moved.");
    expect(commandOf(host, "fg")?.phase).toBe("background");
    expect(sleepers("51.3002")).toBe(1);
  });

  it("ends every background tree when the host quits, and says the app quit", async () => {
    const { host, root, workspace } = await startHost(
      [[background("q", "sleep 51.3003")], [{ type: "text", text: "Up." }]],
      { commands: { backgroundReadinessMs: 300 } },
    );
    await calls(host).prompt({ text: "go" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "q"),
      decision: { kind: "approve" },
    });
    await assistantSaid(host, "Up.");
    expect(sleepers("51.3003")).toBe(1);
    await host.dispose();
    expect(sleepers("51.3003")).toBe(0);
    expect(audit(root, workspace).at(-1)).toMatchObject({ event: "stopped", by: "quit", commandId: "q" });
  });

  it("keeps the workspace's cap for background commands, within a minute and a day", async () => {
    const { host } = await startHost([]);
    expect(host.state().limits?.backgroundCapSeconds).toBe(4 * 3600);
    await calls(host).setBackgroundCap({ seconds: 2 * 3600 });
    expect(host.state().limits?.backgroundCapSeconds).toBe(2 * 3600);
    await calls(host).newSession();
    expect(host.state().limits?.backgroundCapSeconds).toBe(2 * 3600);
  });

  it("holds one cap for the background commands of all the workspace's chats", async () => {
    const eight = Array.from({ length: 8 }, (_, k) => background(`bg${k}`, `sleep 52.31${k}`));
    const { host } = await startHost(
      {
        fill: [eight, [{ type: "text", text: "Filled." }]],
        more: [[background("extra", "sleep 52.399")], [{ type: "text", text: "Tried." }]],
      },
      { commands: { backgroundReadinessMs: 300 } },
    );
    const first = host.state().chatId as string;
    await calls(host, first).addRule({
      effect: "allow",
      match: "prefix",
      pattern: "sleep",
      scope: "workspace",
    });
    await calls(host, first).prompt({ text: "fill" });
    await waitFor(() => eight.every(({ id }) => host.command(id, first)?.background?.status === "running"));
    const second = (await calls(host).newSession()).id;
    await calls(host, second).prompt({ text: "more" });
    const refused = await waitFor(() => {
      const view = host.command("extra", second);
      return view?.phase === "refused" ? view : undefined;
    });
    expect(refused.output).toContain(
      "8 commands already run in the background, the most this workspace allows.",
    );
    expect(sleepers("52.399")).toBe(0);
    // One stopped in the first chat: the second chat's next may start.
    await calls(host, first).cancelCommand({ commandId: "bg0" });
    await waitFor(() => host.command("bg0", first)?.background?.status === "stopped");
  });
});
