import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  sandboxOnHere,
  startHost,
} from "../core/host-harness";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" });

// Each attempt prints its name only when it worked; the common and the worktree's git folders from git itself.
const ATTEMPTS = [
  "C=$(git rev-parse --git-common-dir); G=$(git rev-parse --absolute-git-dir)",
  "printf 'work\\n' > work.txt",
  "git add -A && git -c user.name=A -c user.email=a@b commit -q -m 'from the chat' && echo DID-COMMIT",
  "echo 'touch /tmp/owned' > $C/hooks/post-commit && echo DID-HOOK",
  "git config user.name evil && echo DID-CONFIG",
  "git update-ref refs/heads/main HEAD && echo DID-MOVE-MAIN",
  "git update-ref refs/heads/pi-desk/other HEAD && echo DID-MOVE-OTHER",
  "echo /tmp > $G/commondir && echo DID-COMMONDIR",
  "printf '[core]\\n\\tfsmonitor = touch /tmp/owned\\n' > $G/config.worktree && echo DID-WORKTREE-CONFIG",
].join("; ");

describe.runIf(sandboxOnHere)("a worktree chat's sandboxed commands", () => {
  it("commit on the chat's branch; the repository's hooks, config and other branches stay out of reach", async () => {
    const { host, workspace } = await startHost(
      { commit: [[runCommand("c1", ATTEMPTS)], [{ type: "text", text: "Tried." }]] },
      { changes: false },
    );
    git(workspace, "init", "-q", "-b", "main");
    writeFileSync(join(workspace, "a.txt"), "alpha\n");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "first");
    git(workspace, "branch", "pi-desk/other");
    const main = git(workspace, "rev-parse", "main");
    const chat = await calls(host).newSession({ worktree: { name: "mine" } });
    const chatCalls = calls(host, chat.id);
    await chatCalls.setSandbox({ enabled: true, network: false });
    await chatCalls.prompt({ text: "commit it" });
    await chatCalls.decide({ approvalId: await pendingApproval(host, "c1"), decision: { kind: "approve" } });
    await assistantSaid(host, "Tried.");
    const output = commandOf(host, "c1")?.output ?? "";
    expect(output).toContain("DID-COMMIT");
    expect(output.match(/DID-[A-Z-]+/g)).toEqual(["DID-COMMIT"]);
    // Seen from outside the sandbox: the work is on the chat's branch, and nothing else moved.
    expect(git(workspace, "show", "pi-desk/mine:work.txt")).toBe("work\n");
    expect(git(workspace, "log", "-1", "--format=%s", "pi-desk/mine").trim()).toBe("from the chat");
    expect(git(workspace, "rev-parse", "main")).toBe(main);
    expect(git(workspace, "rev-parse", "pi-desk/other")).toBe(main);
    expect(existsSync(join(workspace, ".git", "hooks", "post-commit"))).toBe(false);
    expect(readFileSync(join(workspace, ".git", "config"), "utf8")).not.toContain("evil");
    expect(readFileSync(join(workspace, ".git", "worktrees", "mine", "config.worktree"), "utf8")).toBe("");
    expect(existsSync("/tmp/owned")).toBe(false);
  });
});
