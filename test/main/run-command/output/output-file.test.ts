import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countNewlines } from "../../../../src/main/run-command/output/output-batches";
import {
  checkOutputBudget,
  type OutputSpace,
  SavedOutputFile,
} from "../../../../src/main/run-command/output/output-file";

const scratch = mkdtempSync(join(tmpdir(), "output-file-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const KIB = 1024;

/** Writes `data` in 64 KiB pieces the way the collector does, waiting when asked to. */
async function save(
  data: Buffer,
  budget: number,
  dir = mkdtempSync(join(scratch, "d-")),
  space?: OutputSpace,
) {
  const file = new SavedOutputFile(dir, budget, space);
  for (let at = 0; at < data.length; at += 64 * KIB) {
    const piece = data.subarray(at, at + 64 * KIB);
    if (!file.write(piece, countNewlines(piece))) await file.writable();
  }
  return { saved: await file.finish(), dir, file };
}

/** Lines "line 1" to "line n", each ended by a newline. */
function numberedLines(n: number): Buffer {
  return Buffer.from(Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join(""));
}

/** The marker line; it starts a line (after a newline of its own when the first part ends mid-line). */
const MARKER =
  /(?<=\n)\[Pi Desk left out (.+?) \(([\d,]+) lines\) of the output here, to keep this file within the (.+?) budget per command: the first part of the output is above this line, the last part below it\.\]\n/;

describe("SavedOutputFile", () => {
  it("saves an output within the budget whole, and leaves no segment file behind", async () => {
    const data = numberedLines(50_000); // about 540 KiB: the first part plus several segments
    const { saved, dir } = await save(data, 600 * KIB);
    expect(saved?.cut).toBeUndefined();
    expect(readFileSync(saved?.path as string).equals(data)).toBe(true);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(statSync(saved?.path as string).mode & 0o777).toBe(0o600);
  });

  it("keeps the first and last parts of an output past the budget, with a marker line saying what was left out", async () => {
    const data = numberedLines(200_000); // about 2.2 MiB against a 256 KiB budget
    const budget = 256 * KIB;
    const { saved, dir } = await save(data, budget);
    const file = readFileSync(saved?.path as string);
    expect(file.length).toBeLessThanOrEqual(budget);
    expect(readdirSync(dir)).toHaveLength(1);

    const text = file.toString();
    const marker = MARKER.exec(text);
    expect(marker).not.toBeNull();
    const head = text.slice(0, marker?.index);
    const tail = text.slice((marker?.index ?? 0) + (marker?.[0].length ?? 0));
    // Whole lines on both sides: the head ends a line, the tail starts one and runs to the very end.
    expect(data.subarray(0, head.length).toString()).toBe(head);
    expect(head.endsWith("\n")).toBe(true);
    expect(data.subarray(data.length - tail.length).toString()).toBe(tail);
    expect(tail.startsWith("line ")).toBe(true);
    expect(tail.endsWith("line 200000\n")).toBe(true);
    // The last part is the smaller one (an eighth of the budget, less at most one segment).
    expect(tail.length).toBeLessThanOrEqual(budget / 8);
    expect(tail.length).toBeGreaterThan(budget / 8 - budget / 64 - 16);

    const headLines = countNewlines(Buffer.from(head));
    const tailLines = countNewlines(Buffer.from(tail));
    const droppedBytes = data.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
    expect(saved?.cut).toEqual({
      droppedBytes,
      droppedLines: 200_000 - headLines - tailLines,
      budgetBytes: budget,
    });
    expect(marker?.[2]).toBe((200_000 - headLines - tailLines).toLocaleString("en-US"));
    expect(tail.split("\n")[0]).toBe(`line ${headLines + (saved?.cut?.droppedLines ?? 0) + 1}`);
  });

  it("cuts one endless line where it must, the marker on a line of its own", async () => {
    const data = Buffer.alloc(1024 * KIB, "x");
    const budget = 128 * KIB;
    const { saved } = await save(data, budget);
    const text = readFileSync(saved?.path as string, "latin1");
    expect(text.length).toBeLessThanOrEqual(budget);
    const [head, tail] = text.split(/\n\[Pi Desk left out [^\n]*\]\n/);
    expect(head).toMatch(/^x+$/);
    expect(tail).toMatch(/^x+$/);
    expect(saved?.cut?.droppedBytes).toBe(data.length - (head?.length ?? 0) - (tail?.length ?? 0));
    expect(saved?.cut?.droppedLines).toBe(0);
  });

  it("tells the quota what it takes as it grows, and its final size", async () => {
    const told: string[] = [];
    let most = 0;
    const space: OutputSpace = {
      using: async (_path, bytes) => {
        most = Math.max(most, bytes);
      },
      done: (path, bytes) => {
        told.push(`${path} ${bytes}`);
      },
    };
    const budget = 512 * KIB;
    const { saved } = await save(numberedLines(300_000), budget, undefined, space);
    expect(told).toEqual([`${saved?.path} ${statSync(saved?.path as string).size}`]);
    // Never more on disk than the budget while it was written.
    expect(most).toBeGreaterThan(budget / 2);
    expect(most).toBeLessThanOrEqual(budget);
  });

  it("reports a folder it cannot write to, and leaves nothing", async () => {
    const notADirectory = join(scratch, "plain-file");
    writeFileSync(notADirectory, "");
    let done = -1;
    const space: OutputSpace = { using: async () => {}, done: (_path, bytes) => (done = bytes) };
    const file = new SavedOutputFile(join(notADirectory, "outputs"), 128 * KIB, space);
    file.write(Buffer.from("hello\n"), 1);
    expect(await file.finish()).toBeUndefined();
    expect(file.failure).toMatch(/ENOTDIR|EEXIST/);
    expect(done).toBe(-1); // nothing was made, so nothing was accounted
  });

  it("refuses a budget it cannot keep, saying what to give instead", () => {
    for (const bad of [0, 1000, 1.5 * 1024 * 1024 + 0.5, Number.NaN, -1]) {
      expect(() => checkOutputBudget(bad)).toThrow(
        /whole number of bytes, at least 65536 .*default is 268435456/,
      );
    }
    expect(() => checkOutputBudget(64 * KIB)).not.toThrow();
  });
});
