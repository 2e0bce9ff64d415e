import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import type { SandboxPlan } from "./sandbox-plan";

/** The descriptor bwrap writes its JSON status to: the runner's status pipe. */
export const BUBBLEWRAP_STATUS_FD = 3;

/** What to tell a person who has no bubblewrap, after saying that it is missing. */
export const INSTALL_BUBBLEWRAP =
  "Install bubblewrap (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), " +
  "or turn the sandbox off for this workspace in settings.";

/**
 * bwrap's arguments up to and including "--"; the command's argv follows. Each flag, and why:
 * - `--ro-bind / /`: the whole system readable, nothing writable unless a rule below says so;
 * - `--dev /dev`, `--proc /proc`: a minimal /dev and a /proc of the sandbox's own PID namespace;
 * - `--ro-bind /proc/sys`, `/proc/sysrq-trigger`: a command running as root (CI, containers) keeps uid 0, and
 *   root may write sysctls (kernel.core_pattern runs a program on the host) even without capabilities;
 * - the plan's rules, shallow to deep, so a deeper rule lands on top: `--bind` (read-write), `--ro-bind` (shown
 *   again, read-only, inside a hidden folder), `--tmpfs` (an empty folder over a hidden one, made read-only at the
 *   end, once the deeper rules have made their mount points in it), `--ro-bind /dev/null` over a hidden file or
 *   socket;
 * - `--cap-drop ALL`: bwrap started by root keeps every capability otherwise, and could remount "/" read-write;
 * - `--unshare-net` unless the network is allowed: only a loopback of its own, no route out, no host ports;
 * - `--unshare-pid`: everything the command starts dies with the namespace, wherever it moved (setsid, double fork);
 * - `--unshare-ipc`: no System V shared memory or semaphores shared with the host's processes;
 * - `--die-with-parent`: if bwrap dies, the command gets SIGKILL instead of running on;
 * - `--new-session`: the command cannot push keystrokes into a terminal it inherited (TIOCSTI);
 * - `--json-status-fd`: tells the command's exit status apart from bwrap's own failure (see `readBubblewrapStatus`).
 */
export function bubblewrapArgs(plan: SandboxPlan): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  args.push(
    "--ro-bind",
    "/proc/sys",
    "/proc/sys",
    "--ro-bind-try",
    "/proc/sysrq-trigger",
    "/proc/sysrq-trigger",
  );
  for (const rule of plan.rules) {
    if (rule.access === "read-write") args.push("--bind", rule.path, rule.path);
    else if (rule.access === "read-only") args.push("--ro-bind", rule.path, rule.path);
    else if (rule.directory) args.push("--tmpfs", rule.path);
    else args.push("--ro-bind", "/dev/null", rule.path);
  }
  for (const rule of plan.rules) {
    if (rule.access === "hidden" && rule.directory) args.push("--remount-ro", rule.path);
  }
  args.push("--cap-drop", "ALL");
  if (!plan.network) args.push("--unshare-net");
  args.push("--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session");
  args.push("--chdir", plan.workspace, "--json-status-fd", String(BUBBLEWRAP_STATUS_FD), "--");
  return args;
}

/**
 * The command's exit status from bwrap's `--json-status-fd` text, or undefined when the command never ran.
 * bwrap writes `{ "child-pid": N, ... }` once it has cloned, which is before it sets up the mounts, and
 * `{ "exit-code": N }` only when setup finished and the command was executed; so a missing exit code means
 * bwrap failed on its own (it then exits 1, which a command may also do).
 */
export function readBubblewrapStatus(text: string): number | undefined {
  for (const line of text.split("\n")) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a partial line from a bwrap that was killed while writing
    }
    const code = (value as { "exit-code"?: unknown } | null)?.["exit-code"];
    if (typeof code === "number" && Number.isInteger(code)) return code;
  }
  return undefined;
}

/** The first `bwrap` executable on a PATH, or undefined; relative entries are skipped like the commands' PATH. */
export function findBubblewrap(searchPath: string): string | undefined {
  for (const entry of searchPath.split(delimiter)) {
    if (!isAbsolute(entry)) continue;
    const candidate = join(entry, "bwrap");
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Why bwrap could not set the sandbox up, from what it printed, with what to do about it. */
export function explainBubblewrapFailure(printed: string, exitCode: number | null): string {
  const own = printed
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("bwrap:"));
  const said = own.length > 0 ? own.join(" ") : `bwrap exited with code ${exitCode} before starting it`;
  let fix =
    "Check that bubblewrap works (bwrap --ro-bind / / true), or turn the sandbox off for this workspace in settings.";
  if (/unknown option/i.test(said)) {
    fix = `This bubblewrap is too old: version 0.5 or later is needed. ${INSTALL_BUBBLEWRAP}`;
  } else if (/Can't create file at/.test(said)) {
    fix =
      "A file or Unix socket the sandbox covers went away while it was set up (a service restarting): run the command again.";
  } else if (/namespace|uid.map|no permissions to creat|RTM_NEWADDR|operation not permitted/i.test(said)) {
    fix =
      "Unprivileged user namespaces look disabled or restricted on this system: enable them " +
      "(Debian: sysctl kernel.unprivileged_userns_clone=1; Ubuntu 23.10 and later restrict them through AppArmor, " +
      "see kernel.apparmor_restrict_unprivileged_userns), or turn the sandbox off for this workspace in settings.";
  }
  return `The sandbox (bubblewrap) could not start, so the command did not run: ${said}. ${fix}`;
}
