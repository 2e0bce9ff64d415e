import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveWorkspace } from "../../../src/main/core/workspace";

describe("resolveWorkspace", () => {
  it("describes an existing folder by its absolute path and name", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-desk-ws-"));
    await expect(resolveWorkspace(`${dir}/./`)).resolves.toEqual({ path: dir, name: basename(dir) });
  });

  it("refuses a relative path, a missing folder and a file, saying what to do", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-desk-ws-"));
    const file = join(dir, "notes.txt");
    writeFileSync(file, "x");
    await expect(resolveWorkspace("relative/dir")).rejects.toThrow("must be an absolute path");
    await expect(resolveWorkspace(join(dir, "missing"))).rejects.toThrow("does not exist");
    await expect(resolveWorkspace(file)).rejects.toThrow("is a file, not a folder");
  });

  it("refuses the home folder and every folder holding it, and takes a project inside it", async () => {
    for (const folder of [homedir(), dirname(homedir()), "/"]) {
      await expect(resolveWorkspace(folder), folder).rejects.toThrow("holds your home folder");
    }
    const project = mkdtempSync(join(homedir(), ".pi-desk-ws-test-"));
    try {
      await expect(resolveWorkspace(project)).resolves.toMatchObject({ path: project });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
