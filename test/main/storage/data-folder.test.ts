import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditFile, rulesFile, workspaceDataDir } from "../../../src/main/storage/data-folder";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "pi-desk-data-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("workspaceDataDir", () => {
  it("names the folder by a hash of the workspace path, 0700, labelled with the path", async () => {
    const dir = workspaceDataDir(root, "/home/me/project");
    const hash = createHash("sha256").update("/home/me/project").digest("hex").slice(0, 16);
    expect(dir).toBe(join(root, "workspaces", hash));
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(join(dir, "workspace.json"), "utf8"))).toEqual({
      path: "/home/me/project",
    });
    expect(workspaceDataDir(root, "/home/me/project/")).toBe(dir);
    expect(workspaceDataDir(root, "/home/me/other")).not.toBe(dir);
    expect(rulesFile(dir)).toBe(join(dir, "rules.json"));
    expect(auditFile(dir)).toBe(join(dir, "audit.jsonl"));
  });
});
