/**
 * The rewind phase of `npm run bench:changes` (`--sizes rewind`): on a generated tree (100,000 files by
 * default, committed to its own git), 20 recorded commands change 2,000 files (100 each: edits, new files,
 * deletions); then, alternating for `rounds` rounds on the same tree:
 * - Pi Desk's rewind of the 20 commands: the preview (`previewUndoChain`), the state recorded first
 *   (`before` + `after` of the rewind's record) and the undo newest first (`undoChain`), as ChatRewind does;
 *   then "Back to where I was" (`undo` of the rewind's record);
 * - against git: `git stash push --include-untracked` (the same change taken back) and `git stash pop`
 *   (brought again; a `git checkout` of a branch holding it costs the same kind of work).
 * Each pair is timed in the same round, so the ratio holds under the machine's load of the moment.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as Changes from "../src/main/changes/index.ts";

/** What the phase measured, in milliseconds (medians over the rounds) and as ratios to git. */
export interface RewindFigures {
  files: number;
  commands: number;
  changedFiles: number;
  rounds: number;
  rewindMs: number;
  gitStashMs: number;
  backMs: number;
  gitPopMs: number;
  rewindRatio: number;
  backRatio: number;
}

const COMMANDS = 20;
const PER_COMMAND = 100;

export async function measureRewind(
  engine: typeof Changes,
  root: string,
  options: { files: number; rounds: number; log: (line: string) => void },
): Promise<RewindFigures> {
  const { files, rounds, log } = options;
  const workspace = join(root, "rewind-tree");
  const dataDir = join(root, "rewind-data");
  rmSync(workspace, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  log(`rewind: generating ${files.toLocaleString()} files`);
  const fileOf = (i: number) => join("src", `d${String(Math.floor(i / 100)).padStart(4, "0")}`, `f${i}.txt`);
  for (let i = 0; i < files; i++) {
    if (i % 100 === 0) mkdirSync(join(workspace, dirOf(fileOf(i))), { recursive: true });
    writeFileSync(join(workspace, fileOf(i)), `file ${i}\n${"some ordinary source text\n".repeat(8)}`);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b", ...args], {
      cwd: workspace,
      maxBuffer: 1024 * 1024 * 1024,
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "tree");
  log("rewind: committed; taking the first snapshot");
  const recorder = await engine.ChangeRecorder.open({ workspace, dataDir, maxFiles: files * 2 });
  await recorder.prepare();
  if (recorder.state.type !== "on") throw new Error(`Recording is off: ${recorder.state.reason}`);

  // 20 commands, 100 files each: 60 edited, 20 new, 20 deleted; spread over the tree.
  const keys: string[] = [];
  for (let c = 0; c < COMMANDS; c++) {
    const key = `bench:c${c}`;
    await recorder.before(key);
    for (let k = 0; k < PER_COMMAND; k++) {
      const i = (c * PER_COMMAND + k) * Math.floor(files / (COMMANDS * PER_COMMAND));
      const path = join(workspace, fileOf(i));
      if (k < 60) writeFileSync(path, `${readFileSync(path, "utf8")}changed by command ${c}\n`);
      else if (k < 80)
        writeFileSync(join(workspace, dirOf(fileOf(i)), `new-${c}-${k}.txt`), `new ${c} ${k}\n`);
      else unlinkSync(path);
    }
    const after = await recorder.after(key);
    if (!after.recorded || after.changes.files.length !== PER_COMMAND) {
      throw new Error(`command ${c} was not recorded whole: ${JSON.stringify(after).slice(0, 300)}`);
    }
    keys.push(key);
  }
  const newestFirst = [...keys].reverse();
  const changed = () =>
    git("status", "--porcelain", "--untracked-files=all").toString().trim().split("\n").length;
  const before = changed();
  log(`rewind: ${before} files changed by ${COMMANDS} commands; ${rounds} rounds`);

  const rewind: number[] = [];
  const back: number[] = [];
  const stash: number[] = [];
  const pop: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const rewindKey = `bench:rewind-${round}`;
    let t = performance.now();
    const preview = await recorder.previewUndoChain(newestFirst);
    await recorder.before(rewindKey);
    const results = await recorder.undoChain(newestFirst);
    await recorder.after(rewindKey);
    rewind.push(performance.now() - t);
    const restored = preview.filter((file) => file.outcome === "restored").length;
    const refused = results.flatMap((result) => [...result.conflicts, ...result.refused]);
    if (restored !== before || refused.length > 0 || git("status", "--porcelain").length > 0) {
      throw new Error(
        `rewind left the tree unlike git's HEAD (${restored} restored, ${refused.length} refused)`,
      );
    }
    t = performance.now();
    const undone = await recorder.undo(rewindKey);
    back.push(performance.now() - t);
    if (undone.conflicts.length + undone.refused.length > 0 || changed() !== before) {
      throw new Error("Back to where I was did not bring the change back whole");
    }
    t = performance.now();
    git("stash", "push", "--include-untracked", "-q");
    stash.push(performance.now() - t);
    if (git("status", "--porcelain").length) throw new Error("git stash left changes");
    t = performance.now();
    git("stash", "pop", "-q");
    pop.push(performance.now() - t);
    if (changed() !== before) throw new Error("git stash pop did not bring the change back whole");
    log(
      `rewind: round ${round + 1}: rewind ${ms(rewind.at(-1))} vs git stash ${ms(stash.at(-1))}; ` +
        `back ${ms(back.at(-1))} vs stash pop ${ms(pop.at(-1))}`,
    );
  }
  await recorder.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
  const figures: RewindFigures = {
    files,
    commands: COMMANDS,
    changedFiles: before,
    rounds,
    rewindMs: median(rewind),
    gitStashMs: median(stash),
    backMs: median(back),
    gitPopMs: median(pop),
    rewindRatio: round2(median(rewind) / median(stash)),
    backRatio: round2(median(back) / median(pop)),
  };
  log(`rewind: ${JSON.stringify(figures)}`);
  return figures;
}

function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function ms(value: number | undefined): string {
  return `${Math.round(value ?? 0)} ms`;
}
