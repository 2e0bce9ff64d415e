import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import { LooseObjects, type ObjectType } from "./loose-objects";
import { PackReader } from "./pack-reader";

/** How deep alternates of alternates are followed (git stops at 5 too). */
const MAX_DEPTH = 5;

/**
 * Names `borrowed` (object folders of other repositories) in the shadow repository's `objects/info/alternates`,
 * so git finds their objects as its own: a worktree's records then name the blobs the repository holds already
 * instead of storing a copy of every file (see `seedFromGitIndex`). As with `git clone --shared`, those objects
 * must stay in the repository: the ones a worktree's files came from are reachable from its branch and index.
 */
export async function writeAlternates(gitDir: string, borrowed: readonly string[]): Promise<void> {
  await mkdir(join(gitDir, "objects", "info"), { recursive: true });
  await writeFile(join(gitDir, "objects", "info", "alternates"), `${borrowed.join("\n")}\n`);
}

/**
 * Reads objects from the stores the shadow repository borrows from (its alternates, and theirs, as git follows
 * them), in this process: loose ones and whole ones in packs; a delta is left to git (`read` returns undefined).
 * The list is read on first use and again after `forget`.
 */
export class BorrowedObjects {
  private stores: { loose: LooseObjects; packs: PackReader }[] | undefined;

  constructor(private readonly objectsDir: string) {}

  /** The content of object `id` of `type` where a borrowed store holds it whole, else undefined. */
  async read(type: ObjectType, id: string): Promise<Buffer | undefined> {
    for (const store of this.list()) {
      const content = (await store.loose.readLoose(type, id)) ?? (await store.packs.read(type, id));
      if (content) return content;
    }
    return undefined;
  }

  /** Reads the alternates again next time (a gc in the repository borrowed from replaced its packs). */
  forget(): void {
    this.stores = undefined;
  }

  private list(): { loose: LooseObjects; packs: PackReader }[] {
    if (this.stores) return this.stores;
    const dirs: string[] = [];
    const follow = (objectsDir: string, depth: number) => {
      if (depth > MAX_DEPTH) return;
      for (const dir of alternatesOf(objectsDir)) {
        if (dirs.includes(dir)) continue;
        dirs.push(dir);
        follow(dir, depth + 1);
      }
    };
    follow(this.objectsDir, 1);
    this.stores = dirs.map((dir) => ({
      loose: new LooseObjects(dir),
      packs: new PackReader(join(dir, "pack")),
    }));
    return this.stores;
  }
}

/** The object folders `objectsDir/info/alternates` names (relative ones from `objectsDir`), none without one. */
function alternatesOf(objectsDir: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(objectsDir, "info", "alternates"), "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => (isAbsolute(line) ? line : resolve(objectsDir, line)));
}
