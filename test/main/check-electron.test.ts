import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

/** Runs `npm start`'s pre-check as npm does, with extra environment. */
function check(env: Record<string, string | undefined>) {
  const run = spawnSync(process.execPath, ["scripts/check-electron.mjs"], {
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { status: run.status, stderr: run.stderr };
}

const electronDir = dirname(createRequire(import.meta.url).resolve("electron/package.json"));
const pathFile = join(electronDir, "path.txt");
const binaryName = existsSync(pathFile) ? readFileSync(pathFile, "utf8").trim() : "electron";

describe("npm start's Electron pre-check", () => {
  it("says in one paragraph that the binary is missing and names the ways out", () => {
    const empty = mkdtempSync(join(tmpdir(), "pi-desk-no-electron-"));
    const { status, stderr } = check({ ELECTRON_OVERRIDE_DIST_PATH: empty });
    expect(status).toBe(1);
    expect(stderr).toContain(
      `Electron's binary is not installed (there is nothing at ${join(empty, binaryName)})`,
    );
    expect(stderr).toContain("npm install");
    expect(stderr).toContain("npm run serve -- --workspace <folder>");
    expect(stderr.trim().split("\n\n")).toHaveLength(1);
  });

  it("lets the app start where the binary is", () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-desk-electron-"));
    writeFileSync(join(dir, binaryName), "#!/bin/sh\n");
    chmodSync(join(dir, binaryName), 0o755);
    expect(check({ ELECTRON_OVERRIDE_DIST_PATH: dir })).toEqual({ status: 0, stderr: "" });
  });
});
