/**
 * The `huge` workspace of `npm run bench:changes -- --sizes huge` (issue 23): 300,000 files in 30,000
 * folders, 3 GB, and beside them a `.gitignore`d `node_modules` of 200,000 more files (which recording
 * must skip as git does). Generated once into `folder` and reused while its marker file is there (it
 * takes minutes to write); `--delete-huge` (the default) removes it when the bench ends.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The tree's shape. */
export interface HugeSpec {
  /** Recorded files, in folders of `perFolder`. */
  files: number;
  /** Files per folder. */
  perFolder: number;
  /** Bytes of the recorded files altogether. */
  bytes: number;
  /** Files in the ignored `node_modules`. */
  ignoredFiles: number;
}

/** The figures. */
export const HUGE: HugeSpec = { files: 300_000, perFolder: 10, bytes: 3e9, ignoredFiles: 200_000 };

const MARKER = ".pi-desk-bench-huge-complete";

/** The path of recorded file `i` (`src/p<i/1000>/d<i/10>/f<i>.txt`): 30 folders of 1,000 sub-folders. */
export function hugeFile(i: number, spec: HugeSpec = HUGE): string {
  const folder = Math.floor(i / spec.perFolder);
  return `src/p${String(Math.floor(folder / 1000)).padStart(3, "0")}/d${String(folder).padStart(5, "0")}/f${String(i).padStart(6, "0")}.txt`;
}

/** Writes the tree into `folder` unless a complete one is there already; returns whether it wrote it. */
export function generateHuge(folder: string, spec: HugeSpec = HUGE): boolean {
  if (existsSync(join(folder, MARKER))) return false;
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, ".gitignore"), `node_modules/\n/${MARKER}\n`);
  const perFile = Math.floor(spec.bytes / spec.files);
  // Text-like content (base64 of random bytes): compresses as source does, unlike raw random bytes,
  // and no two files alike. Sizes vary from half to one and a half times the mean.
  const pool = randomBytes(64 * 1024 * 1024).toString("base64");
  let made = "";
  for (let i = 0; i < spec.files; i++) {
    const rel = hugeFile(i, spec);
    const dir = rel.slice(0, rel.lastIndexOf("/"));
    if (dir !== made) {
      mkdirSync(join(folder, dir), { recursive: true });
      made = dir;
    }
    const size = Math.floor(perFile * (0.5 + ((i * 7919) % 1000) / 1000));
    const at = (i * 104_729) % (pool.length - size);
    writeFileSync(join(folder, rel), `${i}\n${pool.slice(at, at + size)}\n`);
  }
  for (let i = 0; i < spec.ignoredFiles; i++) {
    const dir = `node_modules/pkg${Math.floor(i / 20)}/lib`;
    if (i % 20 === 0) mkdirSync(join(folder, dir), { recursive: true });
    writeFileSync(join(folder, dir, `m${i}.js`), `module.exports = ${i};\n`);
  }
  writeFileSync(join(folder, MARKER), "");
  return true;
}
