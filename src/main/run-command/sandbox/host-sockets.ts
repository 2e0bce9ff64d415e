import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { errorMessage } from "../../base/errors";
import { isInside } from "../../base/paths";
import type { PathRule } from "./sandbox-plan";

/*
 * Why the sandbox hides every Unix socket the host has bound, one by one.
 *
 * A read-only bind of "/" does not stop connect(2) on a Unix socket: the kernel checks write permission on the
 * socket file, not whether its mount is read-only, and a path socket is found by its inode, in any network
 * namespace. So `--unshare-net` stops TCP and abstract sockets (those belong to a network namespace) but not
 * /var/tmp/x.sock, /run/snapd.socket or /run/postgresql/.s.PGSQL.5432. A seccomp filter cannot tell those
 * from a socket in the workspace (connect's address is a pointer it cannot follow), so blocking socket(AF_UNIX)
 * as Anthropic's sandbox-runtime does would break a dev server's socket in the workspace, and Landlock cannot
 * restrict path sockets on the kernels people run. What does work is a mount over the socket file: connect then
 * finds /dev/null, not a socket. The kernel lists every bound socket in /proc/net/unix, per network namespace,
 * so the host reads those tables and covers each socket outside the command's own folders.
 *
 * What this does not see, and ALWAYS_HIDDEN (sandbox.ts) backs up for the daemons that matter most: a socket a
 * daemon binds after the command started, one bound by a relative path or in a mount namespace whose paths
 * differ from the host's, and a second name for a socket (a hard link, a bind mount elsewhere).
 */

/** The kernel's table of this process's network namespace; the others are read through a process in each. */
const OWN_TABLE = "/proc/net/unix";

/**
 * The path names in a /proc/net/unix table: every socket bound to an absolute path (listening, datagram, or
 * accepted from a listening one). Abstract names (`@name`) belong to a network namespace, which a command
 * without the network does not share; unbound sockets have no name at all.
 */
export function parseUnixSocketTable(text: string): string[] {
  const paths = new Set<string>();
  for (const line of text.split("\n")) {
    // "Num: RefCount Protocol Flags Type St Inode Path": the path is everything after the seventh field
    // (it may hold spaces).
    const path = /^\s*[0-9a-fA-F]+:(?:\s+\S+){6} (.+)$/.exec(line)?.[1];
    if (path?.startsWith("/")) paths.add(path);
  }
  return [...paths];
}

/**
 * The real paths of the Unix sockets bound on this machine that exist as socket files now. Throws when the
 * host's own table cannot be read: a sandbox that cannot see the sockets cannot hide them, so the command must
 * not run. Other network namespaces (containers, other sandboxed commands) are read where their processes
 * can be seen, and skipped where they cannot.
 */
export function hostSocketPaths(tables: readonly string[] = readSocketTables()): string[] {
  const found = new Set<string>();
  for (const table of tables) {
    for (const path of parseUnixSocketTable(table)) {
      try {
        const real = realpathSync(path);
        if (lstatSync(real).isSocket()) found.add(real);
      } catch {
        // gone since it was bound, or bound by a path this mount namespace does not have: nothing to cover
      }
    }
  }
  return [...found].sort();
}

/** The host's own socket table and one of every other network namespace a visible process is in. */
function readSocketTables(): string[] {
  let own: string;
  try {
    own = readFileSync(OWN_TABLE, "utf8");
  } catch (error) {
    throw new Error(
      `Pi Desk could not list this machine's Unix sockets, which the sandbox hides from commands (${OWN_TABLE}: ` +
        `${errorMessage(error)}). Check that /proc is mounted, or turn the sandbox off for this workspace in settings.`,
    );
  }
  const tables = [own];
  const seen = new Set([namespaceOf("self")]);
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    // the own table is the one that must be read; the rest is a second look
  }
  for (const pid of pids) {
    const namespace = namespaceOf(pid);
    if (namespace === undefined || seen.has(namespace)) continue;
    seen.add(namespace);
    try {
      tables.push(readFileSync(`/proc/${pid}/net/unix`, "utf8"));
    } catch {
      // the process ended meanwhile, or belongs to someone this host may not look at
    }
  }
  return tables;
}

/** The network namespace a process is in (`net:[4026531833]`), or undefined when it cannot be seen. */
function namespaceOf(pid: string): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
}

/**
 * Hidden-file rules for the host's sockets, except those the command may reach: inside one of its own folders
 * (a read-write or scratch rule: the workspace, its temp folder, its HOME) and the ones it is given (the network
 * proxy's). A socket inside a hidden folder gets a rule too; `orderRules` drops it as redundant.
 */
export function hiddenSocketRules(
  sockets: readonly string[],
  rules: readonly PathRule[],
  reachable: readonly string[] = [],
): PathRule[] {
  const own = rules.filter((rule) => rule.access === "read-write" || rule.access === "scratch");
  const allowed = new Set(reachable.map(realOrSame));
  return sockets
    .filter((path) => !allowed.has(path) && !own.some((rule) => isInside(rule.path, path)))
    .map((path) => ({ path, access: "hidden", directory: false }));
}

/**
 * Whether bwrap failed because one of the sockets it was to cover is gone: the mount point it then has to make
 * lies on the read-only root ("Can't create file at …"). The command did not run, so it may simply be started
 * again with a fresh look at the sockets.
 */
export function socketVanished(failure: string, sockets: readonly string[]): boolean {
  return sockets.some((path) => failure.includes(`Can't create file at ${path}: `));
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
