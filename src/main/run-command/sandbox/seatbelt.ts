import { posix } from "node:path";
import { isInside } from "../../base/paths";
import { innermostAbove, type PathRule, type SandboxPlan } from "./sandbox-plan";

/** macOS's sandbox launcher, by absolute path so that no PATH entry can stand in for it. */
export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/**
 * Runs between sandbox-exec and the command: writes one byte to the status pipe (fd 3), closes it so the
 * command cannot write there, then becomes the command. The byte proves that the profile was accepted and
 * applied; without it, a non-zero exit is sandbox-exec's own failure.
 */
const STARTER = 'printf 1 >&3; exec 3>&-; exec "$@"';

/** Operations every command needs, after Chromium's and Codex's base profiles: processes, sysctls, user lookup. */
const BASE = [
  "(version 1)",
  "(deny default)",
  "(allow process-exec process-fork)",
  "(allow signal (target same-sandbox))",
  "(allow process-info* (target same-sandbox))",
  "(allow sysctl-read)",
  "(allow user-preference-read)",
  "(allow ipc-posix-sem ipc-posix-shm)",
  "(allow pseudo-tty)",
  "(allow mach-lookup",
  '  (global-name "com.apple.system.opendirectoryd.libinfo")',
  '  (global-name "com.apple.system.logger")',
  '  (global-name "com.apple.PowerManagement.control"))',
  '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper"))',
];

/** With the network allowed: sockets, and the services DNS and TLS certificate checks go through. */
const NETWORK = [
  "(allow network* system-socket)",
  "(allow mach-lookup",
  '  (global-name "com.apple.dnssd.service")',
  '  (global-name "com.apple.SystemConfiguration.configd")',
  '  (global-name "com.apple.SystemConfiguration.DNSConfiguration")',
  '  (global-name "com.apple.networkd")',
  '  (global-name "com.apple.trustd.agent")',
  '  (global-name "com.apple.ocspd"))',
];

/**
 * The Seatbelt profile of a plan. Everything is denied unless allowed, and only allows are emitted, so no rule
 * depends on the order SBPL evaluates them in: each allow names its root minus the deeper rules that take paths
 * away from it (`require-not`). Reads: "/" minus hidden and scratch rules, plus every read-write and read-only
 * root minus what is hidden inside it; writes: the read-write roots minus every other rule inside them. Folders above a
 * visible root inside a hidden one get their metadata only, so `realpath` and `pwd -P` work. Scratch rules
 * (Linux's private /tmp) are hidden: Seatbelt cannot give a command an empty folder of its own.
 * Throws when a path holds a control character, which an SBPL string cannot carry reliably.
 */
export function seatbeltProfile(plan: SandboxPlan): string {
  const rules = plan.rules.map((rule) =>
    rule.access === "scratch" ? { ...rule, access: "hidden" as const } : rule,
  );
  const open = rules.filter((rule) => rule.access === "read-write" || rule.access === "read-only");
  const lines = [...BASE];
  lines.push(`(allow file-read* ${minus("/", rules, "read")})`);
  for (const root of open) lines.push(`(allow file-read* ${minus(root.path, rules, "read")})`);
  const metadata = new Set<string>();
  for (const root of open) {
    // Every folder between the root and the hidden rule it sits in, that one included.
    const cover = innermostAbove(rules, root.path);
    if (cover?.access !== "hidden") continue;
    for (let dir = posix.dirname(root.path); isInside(cover.path, dir); dir = posix.dirname(dir)) {
      metadata.add(dir);
      if (dir === cover.path) break;
    }
  }
  if (metadata.size > 0) {
    const literals = [...metadata].sort().map((dir) => `(literal ${sbplString(dir)})`);
    lines.push(`(allow file-read-metadata ${literals.join(" ")})`);
  }
  for (const root of open) {
    if (root.access === "read-write") lines.push(`(allow file-write* ${minus(root.path, rules, "write")})`);
  }
  if (plan.network) lines.push(...NETWORK);
  else for (const port of plan.proxyPorts ?? []) lines.push(proxyPort(port));
  return `${lines.join("\n")}\n`;
}

/**
 * Allowed hosts without a network namespace: the one connection a command may open is to its proxy's port on
 * the host's loopback (SBPL names loopback "localhost" and takes one port per rule, as Anthropic's
 * sandbox-runtime does), nothing else: no other port, no other address, no DNS service, no Unix socket.
 */
function proxyPort(port: number): string {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`The network proxy's port ${port} is not a port; the sandbox profile cannot name it.`);
  }
  return `(allow network-outbound (remote ip "localhost:${port}"))`;
}

/** sandbox-exec's arguments up to the command's argv: the profile, then the starter that reports the start. */
export function seatbeltArgs(profile: string): string[] {
  return ["-p", profile, "/bin/sh", "-c", STARTER, "sh"];
}

/** Whether the starter ran, i.e. the profile was applied and the command was executed. */
export function seatbeltStarted(statusText: string): boolean {
  return statusText.startsWith("1");
}

/** Why sandbox-exec could not apply the profile, from what it printed, with what to do about it. */
export function explainSeatbeltFailure(printed: string, exitCode: number | null): string {
  const said =
    printed
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .join(" ") || `sandbox-exec exited with code ${exitCode} before starting it`;
  return (
    `The sandbox (macOS sandbox-exec) could not start, so the command did not run: ${said}. ` +
    "Report this with your macOS version, or turn the sandbox off for this workspace in settings."
  );
}

/**
 * `(require-all (subpath root) (require-not (subpath deeper))...)` for the rules inside `root` that take
 * away what `root` gives: for reads the hidden ones, for writes every rule that is not read-write.
 * Rules inside those are their own allow lines, so nesting works at any depth.
 */
function minus(root: string, rules: readonly PathRule[], mode: "read" | "write"): string {
  const taken = rules.filter((rule) => rule.path !== root && isInside(root, rule.path));
  const removed = taken.filter((rule) =>
    mode === "read" ? rule.access === "hidden" : rule.access !== "read-write",
  );
  const self = `(subpath ${sbplString(root)})`;
  if (removed.length === 0) return self;
  const nots = removed.map(
    (rule) => `(require-not (${rule.directory ? "subpath" : "literal"} ${sbplString(rule.path)}))`,
  );
  return `(require-all ${self} ${nots.join(" ")})`;
}

/** A path as an SBPL string literal. */
function sbplString(path: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f]/.test(path)) {
    throw new Error(
      `The path ${JSON.stringify(path)} contains a control character; the sandbox profile cannot name it.`,
    );
  }
  return `"${path.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
