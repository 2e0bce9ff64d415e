import { describe, expect, it } from "vitest";
import { deskReducer, initialView } from "../../src/renderer/src/state/desk-reducer";
import type { HostState } from "../../src/shared/host-state";

const state: HostState = { workspace: null, shell: "browser", canChooseWorkspace: false, version: "1.0.0" };
const repo = { path: "/home/ada/repo", name: "repo" };

describe("deskReducer", () => {
  it("starts connecting with nothing known", () => {
    expect(initialView).toEqual({ host: null, connection: { kind: "connecting" } });
  });

  it("takes a snapshot whole, replacing what it had", () => {
    const before = deskReducer(initialView, { type: "snapshot", state: { ...state, workspace: repo } });
    const after = deskReducer(before, { type: "snapshot", state });
    expect(after.host).toEqual(state);
  });

  it("applies a workspace change to the known state", () => {
    const view = deskReducer(deskReducer(initialView, { type: "snapshot", state }), {
      type: "workspace-changed",
      workspace: repo,
    });
    expect(view.host?.workspace).toEqual(repo);
  });

  it("ignores a workspace change that arrives before any snapshot (the snapshot will carry it)", () => {
    expect(deskReducer(initialView, { type: "workspace-changed", workspace: repo })).toBe(initialView);
  });

  it("tracks the connection without losing the host state", () => {
    const known = deskReducer(initialView, { type: "snapshot", state });
    const lost = deskReducer(known, { type: "connection", status: { kind: "disconnected", reason: "gone" } });
    expect(lost.connection).toEqual({ kind: "disconnected", reason: "gone" });
    expect(lost.host).toEqual(state);
  });
});
