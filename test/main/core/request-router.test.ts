import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DeskHost } from "../../../src/main/core/desk-host";
import { routeRequest } from "../../../src/main/core/request-router";
import type { HostEvent } from "../../../src/shared/host-events";

async function makeHost() {
  const events: HostEvent[] = [];
  const host = await DeskHost.create({
    shell: "browser",
    version: "test",
    dataRoot: mkdtempSync(join(tmpdir(), "pi-desk-data-")),
  });
  host.subscribe((event) => events.push(event));
  return { host, events };
}

describe("routeRequest", () => {
  it("answers a valid call with the host's result", async () => {
    const { host } = await makeHost();
    const outcome = await routeRequest(host.handlers, "getState", undefined);
    expect(outcome).toMatchObject({
      ok: true,
      result: {
        workspace: null,
        shell: "browser",
        canChooseWorkspace: false,
        version: "test",
        session: null,
      },
    });
  });

  it.each([
    ["a made-up method", "deleteEverything"],
    ["a prototype key", "__proto__"],
    ["an inherited name", "toString"],
    ["the constructor", "constructor"],
    ["a number", 42],
    ["nothing", undefined],
  ])("refuses %s as an unknown method and names the known ones", async (_label, method) => {
    const { host, events } = await makeHost();
    const outcome = await routeRequest(host.handlers, method, undefined);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("unknown-method");
    expect(outcome.error.message).toContain(
      "Known methods: getState, chooseWorkspace, openWorkspace, listSessions",
    );
    expect(events).toEqual([]);
  });

  it.each([
    ["no parameters", undefined],
    ["a string instead of an object", "/tmp"],
    ["a number path", { path: 7 }],
    ["an empty path", { path: "" }],
    ["a huge path", { path: `/${"a".repeat(100_000)}` }],
    ["an extra field", { path: "/tmp", extra: true }],
    ["a prototype-pollution key", JSON.parse('{"path": "/tmp", "__proto__": {"polluted": true}}')],
    ["null", null],
    ["an array", ["/tmp"]],
  ])("refuses openWorkspace with %s and changes nothing", async (_label, params) => {
    const { host, events } = await makeHost();
    const outcome = await routeRequest(host.handlers, "openWorkspace", params);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe("invalid-params");
      expect(outcome.error.message).toMatch(/^Invalid parameters for openWorkspace: /);
    }
    expect(host.state().workspace).toBeNull();
    expect(events).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses parameters sent to a call that takes none", async () => {
    const { host } = await makeHost();
    const outcome = await routeRequest(host.handlers, "getState", { sneaky: 1 });
    expect(outcome).toMatchObject({ ok: false, error: { code: "invalid-params" } });
  });

  it("opens a workspace and tells subscribers", async () => {
    const { host, events } = await makeHost();
    const dir = mkdtempSync(join(tmpdir(), "pi-desk-router-"));
    const outcome = await routeRequest(host.handlers, "openWorkspace", { path: dir });
    expect(outcome).toMatchObject({ ok: true, result: { path: dir } });
    // The workspace, then its first chat, each told once, numbered in order.
    const state = host.state();
    const told = events.filter(
      (event) => event.type === "workspaces-changed" || event.type === "chat-summary",
    );
    expect(told).toEqual([
      { type: "workspaces-changed", workspaces: state.workspaces, seq: expect.any(Number) },
      { type: "chat-summary", summary: state.chats[0], seq: expect.any(Number) },
    ]);
    const seqs = events.map((event) => ("seq" in event ? event.seq : 0));
    expect(seqs).toEqual(seqs.map((_, at) => at + 1));
    expect(state.seq).toBe(events.length);
    expect(host.state().session?.transcript).toEqual([]);
    await host.dispose();
  });

  it("turns a failing call into an error value that says what to do", async () => {
    const { host } = await makeHost();
    const outcome = await routeRequest(host.handlers, "openWorkspace", { path: "/no/such/folder/here" });
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: "failed",
        message: 'The workspace folder "/no/such/folder/here" does not exist. Choose an existing folder.',
      },
    });
    const noDialog = await routeRequest(host.handlers, "chooseWorkspace", undefined);
    expect(noDialog).toMatchObject({ ok: false, error: { message: expect.stringContaining("--workspace") } });
  });
});
