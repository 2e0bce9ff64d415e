import { statfsSync } from "node:fs";

/**
 * Linux file systems (statfs `f_type`) known to move a folder's mtime and ctime whenever an entry in it
 * is made, removed or renamed, on the machine itself: local disks and memory ones. Not here: network
 * file systems (NFS, SMB, whose clients cache a folder's attributes), FUSE (sshfs and the like, which
 * report what their server says), FAT and exFAT (a folder's times there are not an entry's change).
 */
const LOCAL_LINUX_FILE_SYSTEMS = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x858458f6, // ramfs
  0x794c7630, // overlayfs (containers)
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
  0xca451a4e, // bcachefs
]);

/**
 * Whether a scan may take a folder's names from its last listing while the folder's own times have not
 * moved (`WorkspaceScan.listingKept`), as git's untracked cache does once `--test-untracked-cache`
 * passes on a disk: on Linux, where the workspace's file system is one known to move them; on macOS
 * (APFS, HFS+) and Windows (NTFS), whose own disks do. Elsewhere every full scan lists every folder.
 */
export function folderTimesTrusted(workspace: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === "darwin" || platform === "win32") return true;
  if (platform !== "linux") return false;
  try {
    return LOCAL_LINUX_FILE_SYSTEMS.has(statfsSync(workspace).type);
  } catch {
    return false; // not known: list every folder, as before
  }
}
