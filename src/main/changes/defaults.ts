/**
 * Folders left out of every snapshot on top of the workspace's own `.gitignore` files (gitignore
 * syntax, at any depth): dependencies, build output and caches that are large, regenerated, and not
 * what a person wants to review or undo. The Settings page can show this list.
 */
export const DEFAULT_EXCLUDES: readonly string[] = [
  "node_modules/",
  "dist/",
  "build/",
  "out/",
  "target/",
  ".next/",
  "coverage/",
  ".venv/",
];

/** Files larger than this (16 MiB) are recorded by size and time only: listed, never stored or undone. */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * More files than this in the workspace (not ignored) and recording turns itself off: monorepos hold
 * 200,000-500,000 tracked files, and the stat cache (see `StatCache`) keeps a restart from hashing them
 * again. A setting (`maxFiles`, `npm run serve -- --changes-max-files N`).
 */
export const DEFAULT_MAX_FILES = 500_000;

/**
 * The first snapshot (which stores every file) may take this long before recording turns itself off.
 * It runs in the background (commands run unrecorded meanwhile, and say so), and at 500,000 files it
 * takes minutes as `git add -A` does: the limit only stops a scan that will never end (a network disk).
 */
export const DEFAULT_FIRST_SNAPSHOT_TIMEOUT_MS = 20 * 60_000;

/** A file's diff is cut at this many bytes unless the caller asks for another cap. */
export const DEFAULT_DIFF_MAX_BYTES = 256 * 1024;
