import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withFileLock, writeFileAtomic } from "../../../src/main/storage/atomic-file";

const ATOMIC_FILE = resolve("src/main/storage/atomic-file.ts");
const MIB = 1024 * 1024;

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "pi-desk-data-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("replaces a file whole, 0600, leaving no temporary file behind", async () => {
    const file = join(root, "a", "b.json");
    await writeFileAtomic(file, "one");
    await writeFileAtomic(file, "two");
    expect(await readFile(file, "utf8")).toBe("two");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(root, "a"))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(root, "a"))).toEqual(["b.json"]);
  });

  // Another process reads the file in a loop while this one replaces it, again and again, with 4 MiB of
  // one letter, then of another: every read it makes must be one whole version, never a part of one.
  it("never lets a reader in another process see a half-written file", async () => {
    const file = join(root, "state.json");
    const stop = join(root, "stop");
    await writeFileAtomic(file, "A".repeat(4 * MIB));
    const reader = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs");
         const [file, stop, size] = process.argv.slice(1);
         let reads = 0, torn = 0, sample = "";
         while (!fs.existsSync(stop)) {
           const text = fs.readFileSync(file, "latin1");
           reads++;
           if (text.length !== Number(size) || !/^(A+|B+)$/.test(text)) { torn++; sample ||= text.length + ":" + text.slice(0, 4) + "…" + text.slice(-4); }
         }
         process.stdout.write(JSON.stringify({ reads, torn, sample }));`,
        file,
        stop,
        String(4 * MIB),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    reader.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    for (let i = 0; i < 40; i++) await writeFileAtomic(file, (i % 2 ? "A" : "B").repeat(4 * MIB));
    await writeFile(stop, "");
    await once(reader, "exit");
    const seen = JSON.parse(out) as { reads: number; torn: number; sample: string };
    expect(seen.reads).toBeGreaterThan(40);
    expect(seen, `reads of a part-written file (length:start…end): ${seen.sample}`).toMatchObject({
      torn: 0,
    });
  });

  // A real process, stopped for good (SIGKILL) once its new content is written and flushed but before it
  // is renamed over the file: the old content must be what is there, whole.
  it("leaves the old content when the writer dies between writing and renaming", async () => {
    const file = join(root, "rules.json");
    await writeFileAtomic(file, "old content");
    const writer = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import fs from "node:fs/promises";
         import { syncBuiltinESMExports } from "node:module";
         // The moment between write and rename: say so, then wait there until killed.
         fs.rename = () => { process.stdout.write("at-rename\\n"); return new Promise(() => {}); };
         syncBuiltinESMExports();
         const { writeFileAtomic } = await import(${JSON.stringify(ATOMIC_FILE)});
         await writeFileAtomic(process.argv[1], "new ".repeat(${MIB}));
         process.stdout.write("done without a rename\\n");`,
        file,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = once(writer, "exit");
    const said = await firstLine(writer);
    // At that moment the new content is whole, beside the file.
    const beside = (await readdir(root)).filter((name) => name !== "rules.json");
    const sizes = await Promise.all(beside.map(async (name) => (await stat(join(root, name))).size));
    writer.kill("SIGKILL");
    await exited;
    expect(said, "the new content is to be written beside the file and renamed over it").toBe("at-rename");
    expect(sizes).toEqual([4 * MIB]);
    expect(await readFile(file, "utf8")).toBe("old content");
    // The crash leaves its temporary file; the next write still replaces the file whole.
    await writeFileAtomic(file, "next");
    expect(await readFile(file, "utf8")).toBe("next");
  });
});

/** The first line a child writes, or what it had written when it exited. */
async function firstLine(child: ChildProcess): Promise<string> {
  let out = "";
  return new Promise((done) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) done(out.split("\n")[0] ?? "");
    });
    child.on("exit", () => done(out.trim()));
  });
}

describe("withFileLock", () => {
  it("runs tasks on one file one at a time, in order, past a failing one", async () => {
    const order: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        order.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      withFileLock(join(root, "f"), task("a")),
      withFileLock(join(root, "f"), task("b", true)),
      withFileLock(join(root, ".", "f"), task("c")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(order).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
  });
});
