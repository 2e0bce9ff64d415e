import type { CommandView } from "../src/shared/commands";

/** The kinds of command a soak mixes, each with an outcome the host must report exactly. */
export type SoakKind = "echo" | "lines" | "big" | "pipeline" | "missing" | "false" | "timeout" | "cancel";

/** One command of the plan: what the model asks for, and what must come back. */
export interface SoakCommand {
  id: string;
  kind: SoakKind;
  command: string;
  timeout: number;
  /** Why the command's final view is not what it must be; undefined when it is. */
  check(
    view: CommandView | undefined,
    fullOutputSize: (path: string) => number | undefined,
  ): string | undefined;
}

/** The binaries the plan uses: the host's allowlist, and one "always allow" rule each. */
export const SOAK_BINARIES = ["echo", "seq", "grep", "ls", "false", "sleep"] as const;

/** How often each kind comes up, out of 100. */
const WEIGHTS: [SoakKind, number][] = [
  ["echo", 25],
  ["lines", 20],
  ["big", 12],
  ["pipeline", 13],
  ["missing", 10],
  ["false", 8],
  ["timeout", 6],
  ["cancel", 6],
];

/** A small seeded generator (mulberry32), so a failing soak can be replayed with its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bytes `seq 1 n` prints. */
function seqBytes(n: number): number {
  let bytes = 0;
  for (let digits = 1, from = 1; from <= n; digits++, from *= 10) {
    bytes += (Math.min(n, from * 10 - 1) - from + 1) * (digits + 1);
  }
  return bytes;
}

/** How many of 1..n contain the digit 7 (what `seq 1 n | grep -c 7` prints). */
function sevens(n: number): number {
  let count = 0;
  for (let i = 1; i <= n; i++) if (String(i).includes("7")) count++;
  return count;
}

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

function expectStatus(view: CommandView | undefined, status: string, exitCode?: number | null) {
  if (!view) return "no command view";
  if (view.phase !== status) return `phase ${view.phase}, expected ${status}`;
  if (exitCode !== undefined && view.details?.exitCode !== exitCode)
    return `exit code ${view.details?.exitCode}, expected ${exitCode}`;
  return undefined;
}

/** The kind whose slice of the weights `point` (0 to 100) falls in. */
function pickKind(point: number): SoakKind {
  let left = point;
  for (const [kind, weight] of WEIGHTS) {
    left -= weight;
    if (left < 0) return kind;
  }
  return "echo";
}

/** One command of a plan, drawn from `random`. */
function planCommand(id: string, random: () => number): SoakCommand {
  const kind = pickKind(random() * 100);
  const int = (from: number, to: number) => from + Math.floor(random() * (to - from + 1));
  switch (kind) {
    case "echo": {
      const word = `soak-${id}`;
      return {
        id,
        kind,
        command: `echo ${word}`,
        timeout: 10,
        check: (view) =>
          expectStatus(view, "succeeded", 0) ?? (view?.output.includes(word) ? undefined : "output lost"),
      };
    }
    case "lines": {
      const n = int(1, 1500);
      return {
        id,
        kind,
        command: `seq 1 ${n}`,
        timeout: 10,
        check: (view) =>
          expectStatus(view, "succeeded", 0) ??
          (lastLine(view?.output ?? "") === String(n) ? undefined : `last line is not ${n}`),
      };
    }
    case "big": {
      // Over the 2,000-line tail: the model sees the tail and is told of the full-output file.
      const n = int(2500, 40_000);
      return {
        id,
        kind,
        command: `seq 1 ${n}`,
        timeout: 20,
        check: (view, size) => {
          const wrong = expectStatus(view, "succeeded", 0);
          if (wrong) return wrong;
          const path = view?.details?.fullOutputPath;
          if (!view?.details?.truncated || !path) return "not truncated, or no full-output file";
          if (size(path) !== seqBytes(n))
            return `full output has ${size(path)} bytes, expected ${seqBytes(n)}`;
          // The model's text: the tail, then the note naming the full-output file and the lines shown.
          const [tail, note] = view.output.split("\n\n[Showing lines ");
          if (!tail?.endsWith(`\n${n}`)) return `the tail does not end with ${n}`;
          return note?.includes(`of ${n} (`) && note.includes(path)
            ? undefined
            : `the note is not right: ${note}`;
        },
      };
    }
    case "pipeline": {
      const n = int(100, 20_000);
      return {
        id,
        kind,
        command: `seq 1 ${n} | grep -c 7`,
        timeout: 10,
        check: (view) =>
          expectStatus(view, "succeeded", 0) ??
          (view?.output.trim() === String(sevens(n))
            ? undefined
            : `counted ${view?.output.trim()}, not ${sevens(n)}`),
      };
    }
    case "missing":
      return {
        id,
        kind,
        command: `ls /soak-missing-${id}`,
        timeout: 10,
        check: (view) =>
          expectStatus(view, "failed", 2) ??
          (view?.output.includes(`soak-missing-${id}`) ? undefined : "stderr lost"),
      };
    case "false":
      return { id, kind, command: "false", timeout: 10, check: (view) => expectStatus(view, "failed", 1) };
    case "timeout":
      return {
        id,
        kind,
        command: "sleep 30",
        timeout: 1,
        check: (view) => expectStatus(view, "timed-out", null),
      };
    case "cancel":
      return {
        id,
        kind,
        command: "sleep 30",
        timeout: 60,
        check: (view) => expectStatus(view, "cancelled", null),
      };
  }
}

/** `count` commands drawn from `seed`; the same seed gives the same plan, so a failing soak can be replayed. */
export function planSoak(count: number, seed: number): SoakCommand[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => planCommand(`k${index}`, random));
}
