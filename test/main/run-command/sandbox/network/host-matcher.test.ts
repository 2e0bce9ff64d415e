import { describe, expect, it } from "vitest";
import { refusedAddress } from "../../../../../src/main/run-command/sandbox/network/address-checks";
import { matchesHost } from "../../../../../src/main/run-command/sandbox/network/host-matcher";
import {
  checkAllowedHosts,
  type HostPattern,
  parseHostPattern,
} from "../../../../../src/main/run-command/sandbox/network/host-pattern";
import { HOST_PRESETS } from "../../../../../src/shared/network";

function patterns(...entries: string[]): HostPattern[] {
  const checked = checkAllowedHosts(entries);
  expect(checked.errors).toEqual([]);
  return checked.patterns;
}

describe("allowedHosts entries", () => {
  it.each([
    ["registry.npmjs.org", { name: "registry.npmjs.org", wildcard: false }],
    ["Registry.NPMJS.org", { name: "registry.npmjs.org", wildcard: false }],
    ["*.githubusercontent.com", { name: "githubusercontent.com", wildcard: true }],
    ["registry.test:8443", { name: "registry.test", wildcard: false, port: 8443 }],
    ["*.example.co.uk:443", { name: "example.co.uk", wildcard: true, port: 443 }],
    ["xn--bcher-kva.example", { name: "xn--bcher-kva.example", wildcard: false }],
  ])("reads %s", (entry, expected) => {
    const read = parseHostPattern(entry);
    expect(read).toEqual({ pattern: { ...expected, text: entry } });
  });

  it.each([
    ["*", /wildcard/],
    ["*.com", /public suffix com/],
    ["*.co.uk", /public suffix co\.uk/],
    ["*.test", /public suffix test/],
    ["foo.*.com", /wildcard/],
    ["*github.com", /wildcard/],
    ["127.0.0.1", /IP address/],
    ["10.0.0.1:80", /IP address/],
    ["[::1]", /IP address/],
    ["::1", /IP address/],
    ["127.1", /not a valid host name/],
    ["bücher.example", /xn-- form/],
    ["b%C3%BCcher.example", /percent-encoded/],
    ["github.com.", /trailing dot/],
    ["https://github.com", /not a URL/],
    ["github.com:0", /port/],
    ["github.com:70000", /port/],
    ["github.com:http", /port/],
    ["-bad.example", /not a valid host name/],
    ["a..b", /not a valid host name/],
    [`${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`, /at most 253/],
    ["", /empty/],
  ])("refuses %s with a reason", (entry, why) => {
    const read = parseHostPattern(entry);
    expect("error" in read && read.error).toMatch(why);
  });

  it("checks a list as a whole: duplicates in another case are dropped, every bad entry is named", () => {
    const checked = checkAllowedHosts(["github.com", "GitHub.com", "*", "*.com"]);
    expect(checked.patterns.map((p) => p.name)).toEqual(["github.com"]);
    expect(checked.errors).toHaveLength(2);
  });

  it("accepts every preset", () => {
    for (const preset of HOST_PRESETS) expect(checkAllowedHosts(preset.hosts).errors).toEqual([]);
  });
});

describe("matchesHost", () => {
  const list = patterns("registry.npmjs.org", "*.githubusercontent.com", "registry.test:8443");
  it.each([
    ["registry.npmjs.org", 443, true],
    ["REGISTRY.npmjs.org", 443, true],
    ["registry.npmjs.org.", 443, true],
    ["registry.npmjs.org..", 443, false],
    ["npmjs.org", 443, false],
    ["evil-registry.npmjs.org", 443, false],
    ["registry.npmjs.org.evil.com", 443, false],
    ["raw.githubusercontent.com", 443, true],
    ["a.b.githubusercontent.com", 80, true],
    ["githubusercontent.com", 443, false],
    ["evilgithubusercontent.com", 443, false],
    ["registry.test", 8443, true],
    ["registry.test", 443, false],
    ["127.0.0.1", 443, false],
    ["::1", 443, false],
    ["[::1]", 443, false],
    ["", 443, false],
    ["registry.npmjs.org\0", 443, false],
    ["registry.npmjs.org%00", 443, false],
    [`${"a.".repeat(130)}githubusercontent.com`, 443, false],
  ])("%s:%i -> %s", (host, port, expected) => {
    expect(matchesHost(list, host, port)).toBe(expected);
  });

  it("allows nothing when the list is empty", () => {
    expect(matchesHost([], "registry.npmjs.org", 443)).toBe(false);
  });
});

describe("refusedAddress", () => {
  it.each([
    "127.0.0.1",
    "127.0.0.2",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "224.0.0.251",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "fc00::abcd",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:192.168.0.1",
    "64:ff9b::a00:1",
    "2002:c0a8:101::1",
    "not-an-ip",
  ])("refuses %s", (address) => {
    expect(refusedAddress(address)).toBeDefined();
  });

  it.each(["104.16.1.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::6810:122", "::ffff:8.8.8.8"])(
    "allows the public address %s",
    (address) => {
      expect(refusedAddress(address)).toBeUndefined();
    },
  );
});
