import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditTools } from "../../../../src/main/agent/file-edits/edit-tools";
import { HiddenFolders } from "../../../../src/main/agent/read-tools/hidden-folders";
import type { EditRequest } from "../../../../src/main/approvals/approval-kinds";
import type { EditDecision, FileEditDetails } from "../../../../src/shared/edits";

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "pi-desk-edit-call-")));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The edit tools with a person who answers `answer` to every request (and the requests seen). */
function tools(answer: (request: EditRequest) => EditDecision) {
  const asked: EditRequest[] = [];
  const [edit, write] = createEditTools({
    root,
    hidden: new HiddenFolders([]),
    approve: async (request) => {
      asked.push(request);
      return answer(request);
    },
  });
  return { edit, write, asked };
}

async function call(tool: ReturnType<typeof tools>["edit"], params: object) {
  const result = await (tool as NonNullable<typeof tool>).execute(
    "t1",
    params as never,
    undefined,
    undefined,
    { cwd: root } as never,
  );
  return {
    ...result,
    details: result.details as FileEditDetails,
    text: result.content.map((b) => ("text" in b ? b.text : "")).join("\n"),
  };
}

describe("an edit call's bytes", () => {
  it("refuses new content over 2 MiB before asking anyone", async () => {
    const { write, asked } = tools(() => ({ kind: "approve" }));
    const result = await call(write, { path: "big.txt", content: "x".repeat(2 * 1024 * 1024 + 1) });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("over the 2 MiB (2,097,152 bytes) an edit may write");
    expect(asked).toHaveLength(0);
    expect(() => readFileSync(join(root, "big.txt"))).toThrow();
  });

  it("refuses a person's version over 2 MiB, writing nothing", async () => {
    const { write } = tools(() => ({ kind: "approve", content: "y".repeat(2 * 1024 * 1024 + 1) }));
    const result = await call(write, { path: "a.txt", content: "small" });
    expect(result.details.status).toBe("failed");
    expect(() => readFileSync(join(root, "a.txt"))).toThrow();
  });

  it("keeps a CRLF file's line endings when the person's version comes from a text box", async () => {
    writeFileSync(join(root, "w.txt"), "one\r\ntwo\r\n");
    const { edit } = tools(() => ({ kind: "approve", content: "one\nTWO!\n" }));
    const result = await call(edit, { path: "w.txt", edits: [{ oldText: "two", newText: "TWO" }] });
    expect(result.details).toMatchObject({ status: "applied", changedByPerson: true });
    expect(readFileSync(join(root, "w.txt"), "utf8")).toBe("one\r\nTWO!\r\n");
  });

  it("tells a replace of a whole file from a change and a new file", async () => {
    writeFileSync(join(root, "old.txt"), "old\n");
    const { write, asked } = tools(() => ({ kind: "deny" }));
    await call(write, { path: "old.txt", content: "new\n" });
    await call(write, { path: "fresh.txt", content: "new\n" });
    expect(asked.map((request) => request.shape)).toEqual(["replace", "new-file"]);
  });
});
