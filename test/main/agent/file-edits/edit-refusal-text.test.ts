import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditTools } from "../../../../src/main/agent/file-edits/edit-tools";
import { HiddenFolders } from "../../../../src/main/agent/read-tools/hidden-folders";
import type { GateAnswer } from "../../../../src/main/approvals/approval-gate";
import type { EditRequest } from "../../../../src/main/approvals/approval-kinds";
import { editRefusalTextEn } from "../../../../src/renderer/src/i18n/refusals.en";
import { editRefusalTextZh } from "../../../../src/renderer/src/i18n/refusals.zh";
import type { EditDecision, FileEditDetails } from "../../../../src/shared/edits";

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "pi-desk-edit-say-")));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Each kind met, so the last test can tell none was left out. */
const seen = new Set<string>();

/** Runs one call of the real edit or write tool with a person who answers `answer`. */
async function call(
  tool: "edit" | "write",
  params: object,
  answer: (request: EditRequest) => GateAnswer<EditDecision> = () => ({ kind: "approve" }),
  hidden: string[] = [],
): Promise<FileEditDetails> {
  const [edit, write] = createEditTools({
    root,
    hidden: new HiddenFolders(hidden),
    approve: async (request) => answer(request),
  });
  const definition = (tool === "edit" ? edit : write) as NonNullable<typeof edit>;
  const result = await definition.execute("t1", params as never, undefined, undefined, {
    cwd: root,
  } as never);
  return result.details as FileEditDetails;
}

/** The page's English for the host's kind is the host's sentence; the Chinese is something else. */
function expectWorded(details: FileEditDetails) {
  expect(details.reasonSay, details.reason).toBeDefined();
  if (!details.reasonSay) return;
  expect(editRefusalTextEn(details.reasonSay)).toBe(details.reason);
  const zh = editRefusalTextZh(details.reasonSay);
  expect(zh).not.toBe("");
  expect(zh).not.toBe(details.reason);
  seen.add(details.reasonSay.id === "target" ? `target:${details.reasonSay.why}` : details.reasonSay.id);
}

describe("edit refusals worded by the page", () => {
  it("words each target the host refuses as the host does", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "pi-desk-edit-say-out-")));
    try {
      expectWorded(await call("write", { path: join(outside, "x.txt"), content: "x" }));
      mkdirSync(join(root, ".git"));
      expectWorded(await call("write", { path: ".git/config", content: "x" }));
      mkdirSync(join(root, "private"));
      expectWorded(
        await call("write", { path: "private/x.txt", content: "x" }, undefined, [join(root, "private")]),
      );
      symlinkSync(join(outside, "nowhere", "y"), join(root, "dangling"));
      expectWorded(await call("write", { path: "dangling", content: "x" }));
      expectWorded(await call("edit", { path: ".", edits: [{ oldText: "a", newText: "b" }] }));
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("words the content, disk, cancel and deny refusals as the host does", async () => {
    expectWorded(await call("write", { path: "big.txt", content: "x".repeat(2 * 1024 * 1024 + 1) }));
    expectWorded(await call("write", { path: "nul.txt", content: "a\u0000b" }));
    expectWorded(
      await call("write", { path: "a.txt", content: "small" }, () => ({
        kind: "approve",
        content: "a\u0000",
      })),
    );
    writeFileSync(join(root, "bin.dat"), Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    expectWorded(await call("write", { path: "bin.dat", content: "text" }));
    writeFileSync(join(root, "moved.txt"), "one\n");
    const meanwhile = () => {
      writeFileSync(join(root, "moved.txt"), "someone else's\n");
      return { kind: "approve" } as const;
    };
    expectWorded(
      await call("edit", { path: "moved.txt", edits: [{ oldText: "one", newText: "two" }] }, meanwhile),
    );
    expectWorded(await call("write", { path: "c.txt", content: "x" }, () => ({ kind: "cancelled" })));
    expectWorded(
      await call("write", { path: "d.txt", content: "x" }, () => ({ kind: "deny", reason: "not now" })),
    );
    expectWorded(await call("write", { path: "e.txt", content: "x" }, () => ({ kind: "deny" })));
  });

  it("met every kind", () => {
    expect([...seen].sort()).toEqual(
      [
        "target:outside",
        "target:git",
        "target:private",
        "target:dangling-link",
        "target:workspace-itself",
        "too-large",
        "nul-bytes",
        "persons-version",
        "binary",
        "changed-on-disk",
        "cancelled",
        "denied",
      ].sort(),
    );
  });
});
