import { describe, expect, it } from "vitest";
import {
  hiddenSocketRules,
  parseUnixSocketTable,
} from "../../../../src/main/run-command/sandbox/host-sockets";
import type { PathRule } from "../../../../src/main/run-command/sandbox/sandbox-plan";

// The shape of a real /proc/net/unix (Linux 6.x): a header, unbound sockets, abstract names, paths.
const TABLE = [
  "Num       RefCount Protocol Flags    Type St Inode Path",
  "0000000034f3195a: 00000003 00000000 00000000 0001 03  1517",
  "00000000016b9de8: 00000002 00000000 00010000 0001 01 19175 /run/snapd.socket",
  "0000000071a90155: 00000002 00000000 00010000 0001 01 19773 @/tmp/.X11-unix/X0",
  "00000000aa000001: 00000002 00000000 00000000 0002 01 20001 /run/systemd/journal/dev-log",
  "00000000aa000002: 00000003 00000000 00000000 0001 03 20002 /run/snapd.socket",
  "00000000aa000003: 00000002 00000000 00010000 0001 01 20003 /var/tmp/a folder/with space.sock",
  "00000000aa000004: 00000002 00000000 00010000 0001 01 20004 relative.sock",
  "",
].join("\n");

const rule = (path: string, access: PathRule["access"]): PathRule => ({ path, access, directory: true });

describe("the host's Unix sockets", () => {
  it("reads every socket bound to an absolute path once, datagram and accepted ones too, spaces and all", () => {
    expect(parseUnixSocketTable(TABLE)).toEqual([
      "/run/snapd.socket",
      "/run/systemd/journal/dev-log",
      "/var/tmp/a folder/with space.sock",
    ]);
  });

  it("hides every socket but those in the command's own folders and the ones it is given", () => {
    const rules = [rule("/home/ann/app", "read-write"), rule("/tmp", "scratch"), rule("/home/ann", "hidden")];
    const sockets = [
      "/home/ann/app/dev.sock",
      "/tmp/.X11-unix/X0",
      "/home/ann/.gnupg/S.gpg-agent",
      "/run/snapd.socket",
      "/var/tmp/proxy.sock",
    ];
    expect(hiddenSocketRules(sockets, rules, ["/var/tmp/proxy.sock"])).toEqual([
      { path: "/home/ann/.gnupg/S.gpg-agent", access: "hidden", directory: false },
      { path: "/run/snapd.socket", access: "hidden", directory: false },
    ]);
  });
});
