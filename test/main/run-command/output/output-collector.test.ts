import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { BATCH_BYTES } from "../../../../src/main/run-command/output/output-batches";
import { OutputCollector } from "../../../../src/main/run-command/output/output-collector";

const scratch = mkdtempSync(join(tmpdir(), "output-collector-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Feeds `data` in pipe-sized chunks and waits for the file like a followed stream would. */
async function collect(data: Buffer | string, collector = new OutputCollector({ outputDir: scratch })) {
  const bytes = Buffer.from(data);
  for (let at = 0; at < bytes.length; at += 65_536) {
    if (!collector.append(bytes.subarray(at, at + 65_536))) await collector.writable();
  }
  return collector.finish();
}

describe("OutputCollector", () => {
  it("returns small output whole (less the final newline), counted, with no file", async () => {
    const output = await collect("one\ntwo\nthree");
    expect(output).toEqual({
      text: "one\ntwo\nthree",
      truncated: false,
      lastLinePartial: false,
      totalBytes: 13,
      totalLines: 3,
      outputLines: 3,
    });
    expect(await collect("a\nb\n")).toMatchObject({ text: "a\nb", totalLines: 2, totalBytes: 4 });
    expect((await collect("\n\n")).text).toBe("\n");
    expect((await collect("")).totalLines).toBe(0);
  });

  it("keeps the last lines of 100,000 and saves every line to a private file", async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `line ${i + 1}`);
    const output = await collect(`${lines.join("\n")}\n`, new OutputCollector());
    expect(output.truncated).toBe(true);
    expect(output.totalLines).toBe(100_000);
    expect(output.outputLines).toBe(DEFAULT_MAX_LINES);
    expect(output.text.split("\n").at(-1)).toBe("line 100000");
    expect(output.text.split("\n")[0]).toBe(`line ${100_000 - DEFAULT_MAX_LINES + 1}`);

    const path = output.fullOutputPath as string;
    expect(readFileSync(path, "utf8")).toBe(`${lines.join("\n")}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    rmSync(dirname(path), { recursive: true });

    // A removed default directory is replaced, not written into by a stale path.
    const again = await collect("x".repeat(DEFAULT_MAX_BYTES + 1), new OutputCollector());
    expect(readFileSync(again.fullOutputPath as string, "latin1").length).toBe(DEFAULT_MAX_BYTES + 1);
    rmSync(dirname(again.fullOutputPath as string), { recursive: true });
  });

  it("creates a missing output directory as 0700", async () => {
    const dir = join(scratch, "made", "here");
    const output = await collect("x".repeat(DEFAULT_MAX_BYTES + 1), new OutputCollector({ outputDir: dir }));
    expect(dirname(output.fullOutputPath as string)).toBe(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("keeps the end of a single line longer than the byte limit", async () => {
    const line = `start${"x".repeat(200_000)}THE END`;
    for (const data of [line, `${line}\n`, `${line}\n\n`]) {
      const output = await collect(data);
      expect(output.truncated).toBe(true);
      expect(output.lastLinePartial).toBe(true);
      expect(output.text.trimEnd().endsWith("THE END")).toBe(true);
      expect(Buffer.byteLength(output.text)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
      expect(Buffer.byteLength(output.text)).toBeGreaterThan(DEFAULT_MAX_BYTES - 8);
    }
  });

  it("drops the partial first line of the tail and keeps whole lines after it", async () => {
    const output = await collect(`${"y".repeat(100_000)}\nlast line\n`);
    expect(output.text).toBe("last line");
    expect(output.lastLinePartial).toBe(false);
  });

  it("never starts the tail with half a multibyte character", async () => {
    // 3-byte characters with no newline: the cut lands inside one for two of every three offsets.
    for (const pad of ["", "a", "ab"]) {
      const output = await collect(pad + "€".repeat(40_000));
      expect(output.text.startsWith("€")).toBe(true);
      expect(output.text).not.toContain("\uFFFD");
    }
  });

  it("survives invalid UTF-8 and NUL bytes", async () => {
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x61, 0x0a, 0xc3, 0x28, 0x00, 0xe2, 0x82]);
    const output = await collect(binary);
    expect(output.text).toBe("\uFFFD\uFFFD\0a\n\uFFFD(\0\uFFFD");
    expect(output.totalBytes).toBe(binary.length);
    expect(output.totalLines).toBe(2);
  });

  it("saves the full output when decoding alone pushes it over the limit", async () => {
    // 30 KB of invalid bytes decode to 90 KB of U+FFFD: the model sees a cut, so the file is owed.
    const output = await collect(Buffer.alloc(30_000, 0xff));
    expect(output.truncated).toBe(true);
    expect(readFileSync(output.fullOutputPath as string).length).toBe(30_000);
  });

  it("shows no half character at the end of a live view, and a replacement at the very end", async () => {
    const collector = new OutputCollector({ outputDir: scratch });
    collector.append(Buffer.from([0x61, 0x62, 0xe2, 0x82]));
    expect(collector.snapshot()).toEqual({ text: "ab", totalBytes: 4, totalLines: 1 });
    collector.append(Buffer.from([0xac]));
    expect(collector.snapshot().text).toBe("ab€");
    expect((await collector.finish()).text).toBe("ab€");
  });

  it("reports an unwritable output directory and still returns the tail", async () => {
    const notADirectory = join(scratch, "a-file");
    writeFileSync(notADirectory, "");
    const collector = new OutputCollector({ outputDir: join(notADirectory, "output") });
    const output = await collect(`${"z\n".repeat(DEFAULT_MAX_LINES + 10)}done\n`, collector);
    expect(output.truncated).toBe(true);
    expect(output.fullOutputPath).toBeUndefined();
    expect(output.fullOutputError).toMatch(/Could not save the full output .*(ENOTDIR|EEXIST)/);
    expect(output.text.endsWith("z\ndone")).toBe(true);
  });

  it("takes a batch while the full-output file opens, asks the caller to wait when it is full, then lets it go on", async () => {
    const collector = new OutputCollector({ outputDir: scratch });
    const piece = Buffer.alloc(64 * 1024, 0x61);
    let taken = 1;
    // Synchronous appends: the file cannot open meanwhile, so the output waits in the first batch.
    while (collector.append(piece)) taken++;
    expect(taken).toBe(BATCH_BYTES / piece.length);
    await collector.writable();
    expect(collector.append(Buffer.from("b"))).toBe(true);
    const output = await collector.finish();
    expect(readFileSync(output.fullOutputPath as string, "latin1")).toBe(`${"a".repeat(BATCH_BYTES)}b`);
  });

  it("copies every chunk, so the caller may read into the same buffer again", async () => {
    const collector = new OutputCollector({ outputDir: scratch });
    const reused = Buffer.alloc(40_000);
    for (const letter of "abc") {
      reused.fill(`${letter}\n`);
      if (!collector.append(reused)) await collector.writable();
    }
    const output = await collector.finish();
    const expected = ["a", "b", "c"].map((l) => `${l}\n`.repeat(20_000)).join("");
    expect(readFileSync(output.fullOutputPath as string, "latin1")).toBe(expected);
    expect(output.text.endsWith("c\nc")).toBe(true);
  });
});
