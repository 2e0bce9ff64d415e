import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadWorkspaceSettings, saveWorkspaceSettings } from "../../../src/main/storage/workspace-settings";

const fileWith = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), "pi-desk-settings-")), "settings.json");
  writeFileSync(file, text);
  return file;
};

describe("workspace settings", () => {
  it("keeps the model and thinking level picked, next to the sandbox choice", async () => {
    const file = fileWith("");
    const settings = {
      sandbox: { enabled: false, network: true },
      model: { provider: "local", id: "m2" },
      thinkingLevel: "high" as const,
    };
    await saveWorkspaceSettings(file, settings);
    expect(await loadWorkspaceSettings(file, true)).toEqual(settings);
  });

  it("keeps scripts on only when stored as true: anything else is the default, off", async () => {
    const on = fileWith(JSON.stringify({ sandbox: { enabled: true, network: false }, scripts: true }));
    expect((await loadWorkspaceSettings(on, true)).scripts).toBe(true);
    for (const stored of ["yes", 1, null, false]) {
      const file = fileWith(JSON.stringify({ sandbox: { enabled: true, network: false }, scripts: stored }));
      expect((await loadWorkspaceSettings(file, true)).scripts).toBeUndefined();
    }
  });

  it("drops only the part that is bad: a damaged model entry keeps the sandbox choice", async () => {
    const file = fileWith(
      JSON.stringify({
        sandbox: { enabled: false, network: false },
        model: { provider: 3 },
        thinkingLevel: "huge",
      }),
    );
    expect(await loadWorkspaceSettings(file, true)).toEqual({ sandbox: { enabled: false, network: false } });
  });

  it("takes the defaults for a missing or unreadable file, the sandbox on where there is one", async () => {
    expect(await loadWorkspaceSettings(join(tmpdir(), "no-such-dir", "settings.json"), true)).toEqual({
      sandbox: { enabled: true, network: false },
    });
    expect(await loadWorkspaceSettings(fileWith("{not json"), false)).toEqual({
      sandbox: { enabled: false, network: false },
    });
    expect(await loadWorkspaceSettings(fileWith("null"), true)).toEqual({
      sandbox: { enabled: true, network: false },
    });
  });

  it("keeps a workspace's command limits, and drops only a limit that may not be used", async () => {
    const file = fileWith("");
    const settings = {
      sandbox: { enabled: true, network: false },
      limits: { memoryBytes: 2 * 1024 ** 3, processes: 512 },
    };
    await saveWorkspaceSettings(file, settings);
    expect(await loadWorkspaceSettings(file, true)).toEqual(settings);
    const damaged = fileWith(JSON.stringify({ limits: { memoryBytes: 1024, processes: 300 } }));
    expect((await loadWorkspaceSettings(damaged, true)).limits).toEqual({ processes: 300 });
    const bad = fileWith(JSON.stringify({ limits: { memoryBytes: "lots", processes: -1 } }));
    expect((await loadWorkspaceSettings(bad, true)).limits).toBeUndefined();
  });
});
