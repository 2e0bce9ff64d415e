import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FolderFiles } from "../../../../src/main/agent/file-finder/folder-files";
import { HiddenFolders } from "../../../../src/main/agent/read-tools/hidden-folders";

let root: string;

/** Writes each file (and its folders) below the test folder. */
function write(...paths: string[]): void {
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), `${path}\n`);
  }
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "pi-desk-finder-")));
  execFileSync("git", ["init", "-q"], { cwd: root });
  write(
    ".gitignore",
    "src/deep/nested/target-file.ts",
    "README.md",
    ".github/workflows/ci.yml",
    "build/target-file.js",
    "node_modules/pkg/target-file.js",
    ".pi-desk-data/outputs/target-file.log",
  );
  writeFileSync(join(root, ".gitignore"), "build/\nnode_modules/\n");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const hidden = () => new HiddenFolders([join(root, ".pi-desk-data")]);

describe("the @ finder's folder", () => {
  it("finds a file in a nested folder as Pi's read tools see the folder: ignored files and hidden folders left out", async () => {
    const found = await new FolderFiles(root, hidden()).find("target");
    expect(found.paths).toEqual(["src/deep/nested/target-file.ts"]);
    const all = await new FolderFiles(root, hidden()).find("");
    expect(all.paths).toEqual(
      expect.arrayContaining([".github/", ".github/workflows/ci.yml", "src/deep/nested/", "README.md"]),
    );
    expect(all.paths.some((path) => /^(build|node_modules|\.pi-desk-data|\.git)\//.test(path))).toBe(false);
    expect(all.searched).toBe(all.paths.length);
    expect(all.capped).toBe(false);
  });

  it("lists again when the menu opens, answering from the last listing meanwhile", async () => {
    const files = new FolderFiles(root, hidden(), { freshMs: 0 });
    expect((await files.find("later")).paths).toEqual([]);
    write("docs/later-note.md");
    // Not asked fresh: the listing stands.
    expect((await files.find("later")).paths).toEqual([]);
    await files.find("", true);
    await expect.poll(async () => (await files.find("later")).paths).toEqual(["docs/later-note.md"]);
  });

  it("says when a folder has more files than it lists", async () => {
    const found = await new FolderFiles(root, hidden(), { cap: 2 }).find("");
    expect(found.capped).toBe(true);
    expect(found.paths.filter((path) => !path.endsWith("/"))).toHaveLength(2);
  });

  it("without fd, lists with Node's glob as the find tool does (node_modules and Pi Desk's data still out)", async () => {
    const path = process.env.PATH;
    process.env.PATH = "";
    try {
      const found = await new FolderFiles(root, hidden()).find("target");
      expect(found.paths).toEqual(
        expect.arrayContaining(["src/deep/nested/target-file.ts", "build/target-file.js"]),
      );
      expect(
        found.paths.some((path) => path.startsWith("node_modules/") || path.startsWith(".pi-desk-data/")),
      ).toBe(false);
    } finally {
      process.env.PATH = path;
    }
  });
});
