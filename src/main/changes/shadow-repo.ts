import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeAlternates } from "./borrowed-objects";

/** Where the shadow repository lives and how git is run. */
export interface ShadowRepoOptions {
  /** The workspace folder (absolute, real path): git's work tree. */
  workspace: string;
  /** A folder of the engine's own outside the workspace; the repository is `<dataDir>/git`. */
  dataDir: string;
  /** The git program; `git` (looked up in PATH) by default. */
  gitBinary?: string;
  /** Kill any one git call after this long; 60 s by default. */
  timeoutMs?: number;
  /** Extra ignore patterns (gitignore syntax) on top of the workspace's `.gitignore` files. */
  excludes: readonly string[];
  /** Object folders of other repositories whose objects this one uses as its own (see `writeAlternates`). */
  borrow?: readonly string[];
}

/** A git call that failed: which one, and git's own words. */
export class GitError extends Error {
  override name = "GitError";
}

/** git could not be started at all (not installed, not in PATH). */
export class GitMissingError extends GitError {
  override name = "GitMissingError";
}

/** An index lock older than this at open is left over from a host that died mid-call. */
const STALE_LOCK_MS = 5 * 60_000;

/**
 * Settings every call carries on its command line, so nothing the shadow repository's config file, a
 * system or global config, or the workspace could say changes how files are read or written:
 * - no hooks, no fsmonitor, no automatic gc (pruning is ours: see `prune`);
 * - bytes and modes exactly as on disk (no CRLF conversion, symbolic links as links, the exec bit);
 * - fast zlib (level 1): snapshots write every new file's content, and speed matters more than size
 *   (the engine writes loose objects itself at the same level: see `LooseObjects`);
 * - the untracked cache and split index off: the engine keeps no index (see `Snapshotter`).
 */
const FIXED_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.symlinks=true",
  "core.fileMode=true",
  "core.ignoreCase=false",
  "core.precomposeUnicode=false",
  "core.quotePath=false",
  "core.sparseCheckout=false",
  "core.compression=1",
  "core.looseCompression=1",
  "core.untrackedCache=false",
  "core.splitIndex=false",
  "index.threads=true",
  "gc.auto=0",
  "maintenance.auto=false",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "diff.renames=true",
  "color.ui=false",
  "commit.gpgSign=false",
  "user.name=Pi Desk",
  "user.email=pi-desk@localhost",
].flatMap((setting) => ["-c", setting]);

/**
 * Attributes that win over any `.gitattributes` in the workspace ($GIT_DIR/info/attributes comes
 * first): content is stored byte for byte, so an undo writes back exactly what was there, and no filter
 * program (git-lfs, a smudge/clean script named in the workspace) ever runs. `!diff`: binary or not is
 * decided by content, as the engine's in-process change sets decide it, whatever the workspace says.
 */
const NEUTRAL_ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding !diff\n";

/**
 * A git repository of the engine's own that tracks the workspace as its work tree (GIT_DIR and
 * GIT_WORK_TREE, as Cline's and Gemini CLI's checkpoints do). The workspace's own `.git` is never
 * read or written: git skips any `.git` entry of a work tree, and every call runs with an environment
 * built from scratch (no inherited GIT_* variable, no system or global config, HOME in the data folder).
 */
export class ShadowRepo {
  /** The repository folder (GIT_DIR). */
  readonly gitDir: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly git: string;
  private readonly timeoutMs: number;

  private constructor(
    readonly options: ShadowRepoOptions,
    home: string,
  ) {
    this.gitDir = join(options.dataDir, "git");
    this.git = options.gitBinary ?? "git";
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.env = {
      // PATH only to find git itself and the helpers it runs from its exec-path.
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      GIT_DIR: this.gitDir,
      GIT_WORK_TREE: options.workspace,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: join(home, "empty.gitconfig"),
      GIT_ATTR_NOSYSTEM: "1",
      GIT_NO_REPLACE_OBJECTS: "1",
      GIT_TERMINAL_PROMPT: "0",
      GIT_OPTIONAL_LOCKS: "0",
      LC_ALL: "C",
      LANG: "C",
    };
  }

  /**
   * Opens the shadow repository of `options.workspace`, creating it on first use. Throws
   * `GitMissingError` when git cannot be run, `GitError` when the repository cannot be set up.
   */
  static async open(options: ShadowRepoOptions): Promise<ShadowRepo> {
    const home = join(options.dataDir, "home");
    await mkdir(join(home, ".config", "git"), { recursive: true, mode: 0o700 });
    await writeFile(join(home, "empty.gitconfig"), "", { mode: 0o600 });
    const repo = new ShadowRepo(options, home);
    if (!existsSync(join(repo.gitDir, "HEAD"))) {
      // An empty template: no sample hooks, no description, nothing the workspace's git would add.
      await repo.run(["init", "--quiet", "--template="]);
    } else {
      // Recording itself runs no git, but undo, diffs and renames do: without git, recording is off
      // with the reason, as for a new repository, rather than failing later at an undo.
      await repo.run(["--version"]);
    }
    // Never removed once written: records taken since name the objects borrowed.
    if (options.borrow?.length) await writeAlternates(repo.gitDir, options.borrow);
    await mkdir(join(repo.gitDir, "info"), { recursive: true });
    await writeFile(join(repo.gitDir, "info", "attributes"), NEUTRAL_ATTRIBUTES);
    await writeFile(join(repo.gitDir, "info", "exclude"), `${options.excludes.join("\n")}\n`);
    // A lock left by a host that died mid-call would block every later call. Only an old one goes:
    // a fresh lock may be another host's live call on the same data folder (one recorder per data
    // folder is the rule; this keeps a slip from corrupting the index).
    await repo.clearStaleLock(STALE_LOCK_MS);
    // The engine keeps the workspace's state in memory now (see `Snapshotter`); an index left by an
    // earlier version would only keep old objects from being pruned.
    await rm(join(repo.gitDir, "index"), { force: true });
    return repo;
  }

  /** Runs git with `args` in the shadow repository; resolves to its stdout, rejects with a `GitError`. */
  run(
    args: readonly string[],
    options: { input?: string | Buffer; timeoutMs?: number; maxBuffer?: number } = {},
  ): Promise<Buffer> {
    const timeout = options.timeoutMs ?? this.timeoutMs;
    return new Promise((resolve, reject) => {
      const child = execFile(
        this.git,
        [...FIXED_CONFIG, ...args],
        {
          env: this.env,
          cwd: this.options.workspace,
          encoding: "buffer",
          maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
          timeout,
          killSignal: "SIGKILL",
          windowsHide: true,
        },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          reject(this.describe(args, error, stderr.toString("utf8"), timeout));
        },
      );
      child.stdin?.on("error", () => {}); // git may exit before reading all of stdin; its error says why
      child.stdin?.end(options.input ?? "");
    });
  }

  /**
   * Runs git and keeps at most `maxBytes` of its stdout: once past the cap git is stopped, so a diff of a
   * huge file costs no more than the cap. Rejects like `run` when git fails before the cap.
   */
  runCapped(args: readonly string[], maxBytes: number): Promise<{ out: Buffer; truncated: boolean }> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.git, [...FIXED_CONFIG, ...args], {
        env: this.env,
        cwd: this.options.workspace,
        stdio: ["ignore", "pipe", "pipe"],
        windowsHide: true,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      let stderr = "";
      const timer = setTimeout(() => child.kill("SIGKILL"), this.timeoutMs);
      child.stdout.on("data", (chunk: Buffer) => {
        if (truncated) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) {
          truncated = true;
          child.kill("SIGKILL");
        }
      });
      child.stderr.on("data", (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString("utf8");
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(this.describe(args, error, stderr, this.timeoutMs));
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        const out = Buffer.concat(chunks).subarray(0, maxBytes);
        if (truncated || code === 0) return resolve({ out, truncated });
        const failure = Object.assign(new Error(`exit ${code ?? signal}`), { killed: signal === "SIGKILL" });
        reject(this.describe(args, failure, stderr, this.timeoutMs));
      });
    });
  }

  /**
   * The contents of `oids` (blob ids), read through one `git cat-file --batch`. Rejects when one is
   * missing (a pruned record).
   */
  async readBlobs(oids: readonly string[]): Promise<Map<string, Buffer>> {
    const unique = [...new Set(oids)];
    const blobs = new Map<string, Buffer>();
    if (unique.length === 0) return blobs;
    const out = await this.run(["cat-file", "--batch"], { input: `${unique.join("\n")}\n` });
    let at = 0;
    for (const oid of unique) {
      const headerEnd = out.indexOf(10, at);
      const header = out.subarray(at, headerEnd).toString("latin1");
      const [, type, size] = header.split(" ");
      if (type !== "blob" || size === undefined) {
        throw new GitError(`The stored content ${oid} is missing from ${this.gitDir} (${header}).`);
      }
      const start = headerEnd + 1;
      blobs.set(oid, out.subarray(start, start + Number(size)));
      at = start + Number(size) + 1;
    }
    return blobs;
  }

  /** Bytes the repository's objects take on disk (loose and packed), from `git count-objects -v`. */
  async sizeBytes(): Promise<number> {
    const text = (await this.run(["count-objects", "-v"])).toString("utf8");
    let kib = 0;
    for (const line of text.split("\n")) {
      const [key, value] = line.split(": ");
      if (key === "size" || key === "size-pack" || key === "size-garbage") kib += Number(value);
    }
    return kib * 1024;
  }

  /** Removes the index lock if older than `minAgeMs` (0: whatever its age). */
  private async clearStaleLock(minAgeMs = 0): Promise<void> {
    const lock = join(this.gitDir, "index.lock");
    const age = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => undefined,
    );
    if (age !== undefined && age >= minAgeMs) await rm(lock, { force: true });
  }

  private describe(args: readonly string[], error: Error, stderr: string, timeout: number): GitError {
    const call = `git ${args[0]}`;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !existsSync(this.options.workspace)) {
      return new GitError(`The workspace folder ${this.options.workspace} is gone; reopen the workspace.`);
    }
    if (code === "ENOENT") {
      return new GitMissingError(
        `git was not found (tried "${this.git}" in PATH). Install git to see and undo what commands change.`,
      );
    }
    if ((error as { killed?: boolean }).killed) {
      // Our own call, killed: its lock is stale now (calls are serialised, no other call of ours runs).
      void this.clearStaleLock();
      return new GitError(
        `${call} took longer than ${timeout >= 1000 ? `${Math.round(timeout / 1000)} s` : `${timeout} ms`} in the shadow repository and was stopped.`,
      );
    }
    const said = stderr.trim().split("\n").slice(0, 4).join(" / ") || error.message;
    return new GitError(`${call} failed in the shadow repository ${this.gitDir}: ${said}`);
  }
}
