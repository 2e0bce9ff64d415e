import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import type { HostEvent } from "../../../src/shared/host-events";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  startHost,
  type Turn,
  waitFor,
} from "./host-harness";

/** Chats with scripts of their own, by the start of their first message (the scripted model's object form). */
const scripts = (byChat: Record<string, Turn[]>) => byChat;

describe("the host: many chats at once", () => {
  it("runs two chats side by side, each playing its own script, both waiting in one inbox", async () => {
    const { host, workspace, events } = await startHost(
      scripts({
        first: [[runCommand("c1", "touch one")], [{ type: "text", text: "First done." }]],
        second: [[runCommand("c1", "touch two")], [{ type: "text", text: "Second done." }]],
      }),
    );
    const a = host.state().chatId as string;
    await calls(host, a).prompt({ text: "first chat" });
    await pendingApproval(host, "c1");
    const b = (await calls(host).newSession()).id;
    await calls(host, b).prompt({ text: "second chat" });
    await waitFor(() => host.command("c1", b)?.approvalId);

    // Both wait at once, in one inbox, oldest first; the same tool call id in each chat stays apart.
    const inbox = host.state().inbox;
    expect(inbox.map((entry) => [entry.chatId, entry.kind === "command" && entry.command.command])).toEqual([
      [a, "touch one"],
      [b, "touch two"],
    ]);
    expect(host.state().chats.map((chat) => [chat.id, chat.activity, chat.waiting])).toEqual([
      [a, "waiting", 1],
      [b, "waiting", 1],
    ]);

    // The second chat's card runs while the first still waits.
    const second = inbox[1]?.kind === "command" ? inbox[1].command.approvalId : undefined;
    await calls(host).decide({ approvalId: second as string, decision: { kind: "approve" } });
    await assistantSaid(host, "Second done.");
    expect(existsSync(join(workspace, "two"))).toBe(true);
    expect(existsSync(join(workspace, "one"))).toBe(false);
    expect(host.command("c1", a)?.phase).toBe("pending");
    expect(host.state(a).session?.running).toBe(true);

    // Every event is numbered, one after the other, and names its chat.
    const numbered = events.filter((event): event is Extract<HostEvent, { seq: number }> => "seq" in event);
    const first = numbered[0]?.seq ?? 0;
    expect(numbered.map((event) => event.seq)).toEqual(numbered.map((_, at) => first + at));
    const chatEvents = numbered.filter((event) => event.type === "command-update");
    expect(new Set(chatEvents.map((event) => ("chatId" in event ? event.chatId : "")))).toEqual(
      new Set([a, b]),
    );
  });

  it("applies a workspace rule saved in one chat to the next command of another, and tells both pages", async () => {
    const { host, workspace, events } = await startHost(
      scripts({
        saver: [[runCommand("s1", "touch saved")], [{ type: "text", text: "Saver done." }]],
        other: [[runCommand("o1", "touch other")], [{ type: "text", text: "Other done." }]],
      }),
    );
    const saver = host.state().chatId as string;
    const other = (await calls(host).newSession()).id;
    await calls(host, saver).prompt({ text: "saver" });
    await waitFor(() => host.command("s1", saver)?.approvalId);
    await calls(host).decide({
      approvalId: host.command("s1", saver)?.approvalId as string,
      decision: { kind: "approve" },
      rule: { effect: "allow", match: "prefix", pattern: "touch", scope: "workspace" },
    });
    await waitFor(() => existsSync(join(workspace, "saved")));
    // The other chat's page hears of the rule too.
    await waitFor(() =>
      events.some((event) => event.type === "rules-changed" && "chatId" in event && event.chatId === other),
    );
    expect(host.state(other).rules.map((rule) => rule.pattern)).toEqual(["touch"]);

    await calls(host, other).prompt({ text: "other" });
    await waitFor(() =>
      host.state(other).session?.transcript.some((item) => "text" in item && item.text === "Other done."),
    );
    expect(host.command("o1", other)).toMatchObject({ phase: "succeeded", decidedBy: "rule" });
    expect(existsSync(join(workspace, "other"))).toBe(true);
  });

  it("keeps a session rule to its own chat", async () => {
    const { host } = await startHost(
      scripts({ "": [[runCommand("c1", "echo hi")], [{ type: "text", text: "ok" }]] }),
    );
    const first = host.state().chatId as string;
    const second = (await calls(host).newSession()).id;
    await calls(host, first).addRule({ effect: "allow", match: "prefix", pattern: "echo", scope: "session" });
    expect(host.state(first).rules.map((rule) => rule.pattern)).toEqual(["echo"]);
    expect(host.state(second).rules).toEqual([]);
    await calls(host, second).prompt({ text: "go" });
    expect(await waitFor(() => host.command("c1", second)?.approvalId)).toBeTruthy();
  });

  it("opens several workspaces side by side, each with its own chats and rules", async () => {
    const { host, root } = await startHost([
      [runCommand("c1", "touch here")],
      [{ type: "text", text: "ok" }],
    ]);
    const otherPath = join(root, "other");
    mkdirSync(otherPath);
    const first = host.state().chatId as string;
    await calls(host, first).addRule({
      effect: "allow",
      match: "prefix",
      pattern: "touch",
      scope: "workspace",
    });
    const other = await calls(host).openWorkspace({ path: otherPath });
    const state = host.state();
    expect(state.workspaces.map((open) => open.path)).toEqual([join(root, "repo"), otherPath]);
    const second = state.chats.find((chat) => chat.workspaceId === other.id)?.id as string;
    expect(state.chats.find((chat) => chat.id === second)?.folder).toBe(otherPath);
    // The first workspace's rule is not the other's.
    expect(host.state(second).rules).toEqual([]);
    await calls(host, second).prompt({ text: "go" });
    await waitFor(() => host.command("c1", second)?.approvalId);
    expect(commandOf(host, "c1")?.cwd).toBe(otherPath);
  });

  it("tells each chat of a workspace its new limits after a settings change, and no other chat", async () => {
    const { host, root, events } = await startHost([[{ type: "text", text: "ok" }]]);
    const otherPath = join(root, "other");
    mkdirSync(otherPath);
    const first = host.state().chatId as string;
    const second = (await calls(host).newSession()).id;
    const other = await calls(host).openWorkspace({ path: otherPath });
    const elsewhere = host.state().chats.find((chat) => chat.workspaceId === other.id)?.id as string;
    const workspaceId = host.state(first).workspace?.id as string;
    const from = events.length;

    await calls(host).setBackgroundCap({ workspaceId, seconds: 600 });
    await calls(host).setAllowedHosts({ workspaceId, hosts: ["registry.npmjs.org"] });

    const told = events.slice(from).filter((event) => event.type === "limits-changed");
    expect(told.map((event) => [event.chatId, event.limits.backgroundCapSeconds])).toEqual([
      [first, 600],
      [second, 600],
      [first, 600],
      [second, 600],
    ]);
    expect(told.at(-1)?.limits).toEqual(host.state(second).limits);
    expect(told.at(-1)?.limits.sandbox.allowedHosts).toEqual(["registry.npmjs.org"]);
    // What changed, not a whole state: no event of the change holds one.
    expect(events.slice(from).some((event) => "state" in event)).toBe(false);
    expect(host.state(elsewhere).limits?.backgroundCapSeconds).not.toBe(600);
  });

  it("closes a workspace: its chats closed, a late decision told why, the folder given up, the others untouched", async () => {
    const { host, root, workspace } = await startHost([[runCommand("c1", "touch here")]]);
    const otherPath = join(root, "other");
    mkdirSync(otherPath);
    const first = host.state().chatId as string;
    const firstWorkspace = host.state(first).workspace?.id as string;
    await calls(host, first).prompt({ text: "go" });
    const approvalId = await pendingApproval(host, "c1");
    const other = await calls(host).openWorkspace({ path: otherPath });

    await calls(host).closeWorkspace({ workspaceId: firstWorkspace });

    const state = host.state();
    expect(state.workspaces.map((open) => open.id)).toEqual([other.id]);
    expect(state.chats.map((chat) => chat.workspaceId)).toEqual([other.id]);
    expect(state.inbox).toEqual([]);
    await expect(calls(host).decide({ approvalId, decision: { kind: "approve" } })).rejects.toThrow(
      /was closed/,
    );
    expect(existsSync(join(workspace, "here"))).toBe(false);
    // Given up: another host may open the folder now.
    const second = await DeskHost.create({
      shell: "browser",
      version: "test",
      workspace: { path: workspace, name: "repo" },
      dataRoot: join(root, "data"),
    });
    onTestFinished(() => second.dispose());
    expect(second.state().workspaces.map((open) => open.path)).toEqual([workspace]);
  });

  it("refuses a call for a chat that is not open, saying what to do", async () => {
    const { host } = await startHost([]);
    await expect(calls(host).prompt({ chatId: "gone", text: "hi" })).rejects.toThrow(
      'No chat is open under id "gone": it was closed, or the host restarted. Pick a chat from the list, or start a new one.',
    );
    await expect(calls(host).listSessions({ workspaceId: "gone" })).rejects.toThrow(
      'No workspace is open under id "gone"',
    );
  });

  it("keeps a prompt's failure in the chat, so a state asked for later still shows it", async () => {
    const { root } = await startHost([]);
    // A host with no model at all (no script, no key): Pi refuses the prompt before any request.
    delete process.env.PI_DESK_SCRIPT;
    const host = await DeskHost.create({
      shell: "browser",
      version: "test",
      workspace: { path: join(root, "repo"), name: "repo" },
      dataRoot: join(root, "data-no-model"),
    });
    onTestFinished(() => host.dispose());
    const chat = host.state().chatId as string;
    await calls(host, chat).prompt({ text: "hello" });
    const notice = await waitFor(() =>
      host.state(chat).session?.transcript.find((item) => item.kind === "notice" && item.level === "error"),
    );
    expect(notice).toMatchObject({ text: expect.stringContaining("Configure a model in settings.") });
    // Another chat shown meanwhile, then this one again: the notice is still there.
    await calls(host).newSession();
    expect(host.state(chat).session?.transcript).toContainEqual(notice);
    expect(host.state().chats.find((open) => open.id === chat)?.activity).toBe("failed");
  });

  it("keeps two chats' records apart when their commands share a call id, and undo refuses what the other changed since", async () => {
    const { host, workspace } = await startHost({
      alpha: [
        [runCommand("call-1", "echo a > shared.txt; echo a > a.txt")],
        [{ type: "text", text: "A done." }],
      ],
      beta: [[runCommand("call-1", "echo b > shared.txt")], [{ type: "text", text: "B done." }]],
    });
    await waitFor(() => host.state().limits?.changes.state.type === "on");
    const alpha = host.state().chatId as string;
    const beta = (await calls(host).newSession()).id;
    const run = async (chat: string, text: string, said: string) => {
      await calls(host, chat).prompt({ text });
      const approvalId = await waitFor(() => host.command("call-1", chat)?.approvalId);
      await calls(host).decide({ approvalId, decision: { kind: "approve" } });
      await waitFor(() =>
        host.state(chat).session?.transcript.some((item) => item.kind === "assistant" && item.text === said),
      );
    };
    await run(alpha, "alpha", "A done.");
    await run(beta, "beta", "B done.");
    const filesOf = (chat: string) => {
      const changes = host.command("call-1", chat)?.details?.changes;
      return changes?.recorded ? changes.files.map((file) => `${file.kind} ${file.path}`) : changes;
    };
    expect(filesOf(alpha)).toEqual(["added a.txt", "added shared.txt"]);
    expect(filesOf(beta)).toEqual(["modified shared.txt"]);

    // Undo in alpha puts back its own file, and leaves the one beta changed since, naming it.
    const undone = await calls(host, alpha).undoCommand({ commandId: "call-1" });
    expect(undone.restored).toEqual(["a.txt"]);
    expect(undone.conflicts.map((conflict) => conflict.path)).toEqual(["shared.txt"]);
    expect(existsSync(join(workspace, "a.txt"))).toBe(false);
    expect(readFileSync(join(workspace, "shared.txt"), "utf8")).toBe("b\n");
  });
});
