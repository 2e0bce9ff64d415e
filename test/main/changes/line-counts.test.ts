import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { countLines } from "../../../src/main/changes/line-counts";

const dir = mkdtempSync(join(tmpdir(), "pi-desk-line-counts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** git's own `--numstat` of two contents. */
function gitCounts(old: string, now: string): { added: number; removed: number } {
  writeFileSync(join(dir, "old"), old, "latin1");
  writeFileSync(join(dir, "new"), now, "latin1");
  let out = "";
  try {
    out = execFileSync("git", ["diff", "--no-index", "--numstat", "old", "new"], { cwd: dir }).toString();
  } catch (error) {
    out = String((error as { stdout: Buffer }).stdout); // exit 1: the files differ
  }
  const [added, removed] = out.split("\t");
  return { added: Number(added ?? 0), removed: Number(removed ?? 0) };
}

// Few distinct lines, so edits repeat lines and the diff has choices to make; `\r\n` and a last line
// without its newline, where counting goes wrong most easily.
const line = fc.constantFrom("a\n", "b\n", "c\n", "a\r\n", "{\n", "}\n", "\n");
const content = fc
  .tuple(fc.array(line, { maxLength: 14 }), fc.constantFrom("", "a", "end"))
  .map(([lines, tail]) => lines.join("") + tail);

it("counts lines added and removed as git's --numstat does", () => {
  fc.assert(
    fc.property(content, content, (old, now) => {
      expect(countLines(Buffer.from(old, "latin1"), Buffer.from(now, "latin1"))).toEqual(gitCounts(old, now));
    }),
    { numRuns: 150 },
  );
});
