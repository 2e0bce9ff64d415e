import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTarget } from "../../../../src/main/agent/file-edits/edit-target";
import { HiddenFolders } from "../../../../src/main/agent/read-tools/hidden-folders";

let base: string;
let root: string;
let data: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "pi-desk-edit-target-")));
  root = join(base, "repo");
  data = join(root, ".pi-desk-data");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(data);
  mkdirSync(join(base, "outside"));
  writeFileSync(join(base, "outside/f"), "");
  writeFileSync(join(root, "src/a.ts"), "a");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const target = (path: string, what: "file" | "folder" = "file") =>
  editTarget(root, new HiddenFolders([data]), path, what);

describe("where an edit may write", () => {
  it("takes files inside the workspace, existing or new, named relative to it", () => {
    expect(target(join(root, "src/a.ts"))).toMatchObject({ path: "src/a.ts", protected: false });
    expect(target(join(root, "src/new/b.ts"))).toMatchObject({ path: "src/new/b.ts" });
    expect(target(join(root, "src/../c.ts"))).toMatchObject({ path: "c.ts" });
    expect(target(root, "folder").path).toBe("");
  });

  it("follows links inside the workspace to where they really land", () => {
    symlinkSync(join(root, "src"), join(root, "alias"));
    expect(target(join(root, "alias/a.ts"))).toMatchObject({
      path: "src/a.ts",
      absolute: join(root, "src/a.ts"),
    });
  });

  /** Makes a link at `at` (in the workspace) to `to` (outside it), and returns the path an edit would name. */
  const link = (to: string, at: string, asked: string) => () => {
    symlinkSync(join(base, to), join(root, at));
    return join(root, asked);
  };
  it.each([
    ["outside the workspace", () => join(base, "outside/x.txt"), "is outside the workspace"],
    ["a parent's file", () => join(root, "../x.txt"), "is outside the workspace"],
    ["a link to a folder outside", link("outside", "out", "out/x"), "is outside the workspace"],
    ["a link to a file outside", link("outside/f", "f", "f"), "is outside the workspace"],
    ["a dangling link", link("outside/none", "d", "d"), "points nowhere"],
    ["a dangling link as a folder", link("nope", "dd", "dd/x"), "points nowhere"],
    ["the workspace's .git", () => join(root, ".git/config"), "inside a .git folder"],
    ["a nested .git", () => join(root, "src/.git/hooks/pre-commit"), "inside a .git folder"],
    ["the host's data", () => join(data, "rules.json"), "keeps private"],
    ["the workspace itself as a file", () => root, "the workspace folder itself"],
  ])("refuses %s", (_name, make, why) => {
    expect(() => target(make())).toThrow(why);
  });

  it.each([
    ".env",
    "config/.env.local",
    ".pi/settings.json",
    ".github/workflows/ci.yml",
    ".husky/pre-commit",
  ])("marks %s as protected: it always asks", (path) => {
    expect(target(join(root, path)).protected).toBe(true);
  });

  it.each(["src/env.ts", "docs/.github.md", "github/workflows/x.yml", "pi/x"])(
    "does not protect %s",
    (path) => {
      expect(target(join(root, path)).protected).toBe(false);
    },
  );
});
