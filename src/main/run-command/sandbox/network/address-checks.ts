import { BlockList, isIP } from "node:net";

/**
 * Addresses a name allowed by the person must not lead to, unless the host's `allowLoopbackTargets` says so:
 * this machine, the LAN and other non-public ranges. A public name can be pointed at any of them (DNS
 * rebinding), and the sandbox's point is that a command reaches neither the person's machine nor their LAN.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the host itself
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT (carrier and Tailscale-style overlays)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255 broadcast
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local (the IPv6 LAN)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // old site-local
  ["ff00::", 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, "ipv6");
}

/** Why the proxy will not connect to `address`, or undefined when it is a public unicast address. */
export function refusedAddress(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  if (v4 !== undefined) {
    return NOT_PUBLIC.check(v4, "ipv4") ? `${address} is a loopback, private or reserved address` : undefined;
  }
  return NOT_PUBLIC.check(address, "ipv6")
    ? `${address} is a loopback, private or reserved address`
    : undefined;
}

/**
 * The IPv4 address an IPv6 address stands for, where the kernel would deliver to it: IPv4-mapped
 * (`::ffff:127.0.0.1`), IPv4-compatible (`::127.0.0.1`), NAT64 (`64:ff9b::7f00:1`) and 6to4 (`2002:7f00:1::`).
 */
function embeddedIpv4(address: string): string | undefined {
  const words = expandIpv6(address);
  if (!words) return undefined;
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && (words[5] === 0xffff || words[5] === 0) && !(words[5] === 0 && zeros(6, 7))) {
    return quad(words[6] as number, words[7] as number);
  }
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6))
    return quad(words[6] as number, words[7] as number);
  if (words[0] === 0x2002) return quad(words[1] as number, words[2] as number);
  return undefined;
}

/** The eight 16-bit words of an IPv6 address (a trailing dotted IPv4 part included). */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(":").map((w) => Number.parseInt(w, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  const words = [...left, ...fill, ...right];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff)
    ? words
    : undefined;
}
