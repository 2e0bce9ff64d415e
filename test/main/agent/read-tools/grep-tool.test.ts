import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGrepToolDefinition } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { createDeskGrepTool } from "../../../../src/main/agent/read-tools/grep-tool";
import { HiddenFolders } from "../../../../src/main/agent/read-tools/hidden-folders";

const dir = mkdtempSync(join(tmpdir(), "pi-desk-grep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "src"));
writeFileSync(join(dir, "src", "a.ts"), "one\nneedle 1\ntwo\nNEEDLE 2\nthree\nneedle 3\n");
writeFileSync(join(dir, "src", "b.js"), `needle.* in js\n${"x".repeat(700)} needle long\n`);
writeFileSync(join(dir, ".env"), "needle hidden file\n");

/** The result's lines, sorted: ripgrep searches files in parallel, so their order differs from run to run. */
const text = (result: { content: { type: string; text?: string }[] }) =>
  result.content
    .map((part) => part.text ?? "")
    .join("")
    .split("\n")
    .sort();

// The desk's grep is Pi's with exclusions added: with none to add, the model must read what Pi would show.
describe("the agent's grep, where nothing is hidden", () => {
  it.each([
    { pattern: "needle" },
    { pattern: "needle", ignoreCase: true },
    { pattern: "needle.*", literal: true },
    { pattern: "needle", context: 1 },
    { pattern: "needle", limit: 2, path: "src/a.ts" },
    { pattern: "needle", limit: 1, context: 2, path: "src/a.ts" },
    { pattern: "needle", glob: "./src/*.ts" },
    { pattern: "absent" },
  ])("answers %j as Pi's grep does", async (params) => {
    const pi = await createGrepToolDefinition(dir).execute(
      "g",
      params,
      undefined,
      undefined,
      undefined as never,
    );
    const desk = await createDeskGrepTool(dir, new HiddenFolders([])).execute(
      "g",
      params,
      undefined,
      undefined,
      undefined as never,
    );
    expect(text(desk)).toEqual(text(pi));
    expect(desk.details).toEqual(pi.details);
  });

  it("says what to do when the path does not exist", async () => {
    await expect(
      createDeskGrepTool(dir, new HiddenFolders([])).execute(
        "g",
        { pattern: "x", path: "nope" },
        undefined,
        undefined,
        undefined as never,
      ),
    ).rejects.toThrow(/Path not found/);
  });
});
