import { describe, expect, it } from "vitest";
import { orderRules, type PathRule } from "../../../../src/main/run-command/sandbox/sandbox-plan";
import {
  explainSeatbeltFailure,
  seatbeltArgs,
  seatbeltProfile,
  seatbeltStarted,
} from "../../../../src/main/run-command/sandbox/seatbelt";

const dir = (path: string, access: PathRule["access"]): PathRule => ({ path, access, directory: true });

const plan = {
  workspace: "/Users/ann/code/app",
  rules: orderRules([
    dir("/Users/ann", "hidden"),
    dir("/private/tmp", "scratch"),
    dir("/private/var/folders/xy/T", "hidden"),
    dir("/private/var/folders/xy/T/pi-desk-tmp-1", "read-write"),
    dir("/Users/ann/code/app", "read-write"),
    dir("/Users/ann/code/app/.pi-desk", "hidden"),
    { path: "/Users/ann/code/app/.env", access: "hidden", directory: false },
  ]),
  network: false,
};

describe("Seatbelt profile", () => {
  it("denies by default and allows reads of / minus the hidden paths", () => {
    const profile = seatbeltProfile(plan);
    expect(profile.startsWith("(version 1)\n(deny default)\n")).toBe(true);
    expect(profile).toContain(
      '(allow file-read* (require-all (subpath "/") (require-not (subpath "/Users/ann")) ' +
        '(require-not (subpath "/private/tmp")) (require-not (literal "/Users/ann/code/app/.env")) ' +
        '(require-not (subpath "/Users/ann/code/app/.pi-desk")) (require-not (subpath "/private/var/folders/xy/T"))))',
    );
  });

  it("gives the workspace back inside the hidden home, minus what is hidden inside it", () => {
    const profile = seatbeltProfile(plan);
    const inner =
      '(require-all (subpath "/Users/ann/code/app") (require-not (literal "/Users/ann/code/app/.env")) ' +
      '(require-not (subpath "/Users/ann/code/app/.pi-desk")))';
    expect(profile).toContain(`(allow file-read* ${inner})`);
    expect(profile).toContain(`(allow file-write* ${inner})`);
    expect(profile).toContain('(allow file-write* (subpath "/private/var/folders/xy/T/pi-desk-tmp-1"))');
    // Only metadata of the folders between the hidden home and the workspace, so realpath works.
    expect(profile).toContain(
      '(allow file-read-metadata (literal "/Users/ann") (literal "/Users/ann/code") (literal "/private/var/folders/xy/T"))',
    );
  });

  it("writes nowhere else: every file-write rule is a read-write root or a device", () => {
    const writes = seatbeltProfile(plan)
      .split("\n")
      .filter((line) => line.includes("file-write"));
    expect(writes).toHaveLength(3);
    expect(writes[0]).toContain('(literal "/dev/null")');
    expect(writes.join("\n")).not.toContain('(subpath "/private/tmp")');
  });

  it("lets a read-only folder be read again inside a hidden one, never written", () => {
    const outputs = dir("/Users/ann/Library/Pi Desk/outputs", "read-only");
    const profile = seatbeltProfile({ ...plan, rules: orderRules([...plan.rules, outputs]) });
    expect(profile).toContain('(allow file-read* (subpath "/Users/ann/Library/Pi Desk/outputs"))');
    expect(profile).not.toMatch(/file-write\* .*Pi Desk/);
  });

  it("keeps the repository's git hooks and config read-only inside the writable workspace", () => {
    const hooks = dir("/Users/ann/code/app/.git/hooks", "read-only");
    const config: PathRule = {
      path: "/Users/ann/code/app/.git/config",
      access: "read-only",
      directory: false,
    };
    const profile = seatbeltProfile({ ...plan, rules: orderRules([...plan.rules, hooks, config]) });
    const write = profile
      .split("\n")
      .find((line) => line.includes('file-write* (require-all (subpath "/Users/ann/code/app")'));
    expect(write).toContain('(require-not (subpath "/Users/ann/code/app/.git/hooks"))');
    expect(write).toContain('(require-not (literal "/Users/ann/code/app/.git/config"))');
    // Still readable: git needs them.
    expect(profile).not.toMatch(
      /file-read\* .*require-not \(subpath "\/Users\/ann\/code\/app\/\.git\/hooks"/,
    );
  });

  it("allows the network only when asked", () => {
    expect(seatbeltProfile(plan)).not.toContain("network");
    expect(seatbeltProfile({ ...plan, network: true })).toContain("(allow network* system-socket)");
  });

  it("with allowed hosts, allows outbound connections to the proxy's two loopback ports and nothing else", () => {
    const profile = seatbeltProfile({ ...plan, proxyPorts: [41001, 41002] });
    const network = profile
      .split("\n")
      .filter((line) => /network|dnssd|mach-lookup|system-socket/.test(line));
    // The base profile's own mach-lookup (directory services, logger, power) and the two ports: no sockets in
    // general, no DNS service (names go to the proxy), no inbound, no other address.
    expect(network).toEqual([
      "(allow mach-lookup",
      '(allow network-outbound (remote ip "localhost:41001"))',
      '(allow network-outbound (remote ip "localhost:41002"))',
    ]);
    expect(profile).not.toContain("com.apple.dnssd.service");
    // With the full network the proxy is not used: the full rules, not the ports.
    const full = seatbeltProfile({ ...plan, network: true, proxyPorts: [41001] });
    expect(full).toContain("(allow network* system-socket)");
    expect(full).not.toContain("network-outbound");
    expect(() => seatbeltProfile({ ...plan, proxyPorts: [0] })).toThrow("is not a port");
  });

  it("escapes quotes and backslashes, and refuses control characters", () => {
    const odd = { ...plan, rules: [dir('/Users/ann/we"ird\\app', "read-write")], workspace: "/x" };
    expect(seatbeltProfile(odd)).toContain('(subpath "/Users/ann/we\\"ird\\\\app")');
    expect(() => seatbeltProfile({ ...plan, rules: [dir("/Users/ann/a\nb", "read-write")] })).toThrow(
      "control character",
    );
  });

  it("starts the command through a starter that reports on fd 3 and closes it", () => {
    const args = seatbeltArgs("(version 1)");
    expect(args.slice(0, 2)).toEqual(["-p", "(version 1)"]);
    expect(args.slice(2)).toEqual(["/bin/sh", "-c", 'printf 1 >&3; exec 3>&-; exec "$@"', "sh"]);
    expect(seatbeltStarted("1")).toBe(true);
    expect(seatbeltStarted("")).toBe(false);
    expect(explainSeatbeltFailure("sandbox-exec: unbound variable\n", 65)).toMatch(
      /could not start, so the command did not run: sandbox-exec: unbound variable\. .*turn the sandbox off/,
    );
  });
});
