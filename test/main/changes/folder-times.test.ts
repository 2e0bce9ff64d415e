import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { folderTimesTrusted } from "../../../src/main/changes/folder-times";

// A full scan takes a folder's names from its last listing while the folder's times stay put, only on
// disks known to move them when an entry changes; anywhere else it lists every folder, as before.
describe("whether a disk's folder times are trusted to keep a listing", () => {
  it("trusts this machine's local disk (ext4, tmpfs or overlayfs under the temp folder)", () => {
    expect(folderTimesTrusted(tmpdir())).toBe(true);
  });

  it("does not trust a file system not on the list, nor a path it cannot ask about", () => {
    expect(folderTimesTrusted("/proc")).toBe(false); // procfs: known, but not a disk that moves them
    expect(folderTimesTrusted(join(tmpdir(), "no-such-folder-pi-desk"))).toBe(false);
  });

  it("trusts macOS's and Windows's own disks, and no other platform's", () => {
    expect(folderTimesTrusted("/", "darwin")).toBe(true);
    expect(folderTimesTrusted("/", "win32")).toBe(true);
    expect(folderTimesTrusted(tmpdir(), "freebsd")).toBe(false);
  });
});
