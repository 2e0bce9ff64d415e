import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { SandboxKind } from "../../../shared/host-state";
import type { RefusalText } from "../../../shared/host-text";
import { errorMessage } from "../../base/errors";
import { type ProcessOutcome, type RunProcessOptions, runProcess } from "../process/process-runner";
import {
  bubblewrapArgs,
  explainBubblewrapFailure,
  findBubblewrap,
  INSTALL_BUBBLEWRAP,
  readBubblewrapStatus,
} from "./bubblewrap";
import { hiddenSocketRules, hostSocketPaths, socketVanished } from "./host-sockets";
import { forwarderFailure } from "./network/forwarder-script";
import {
  type NetworkPolicy,
  type PreparedNetwork,
  type ProxyPlace,
  prepareNetwork,
  toNetworkPolicy,
} from "./network/network-policy";
import { orderRules, type PathAccess, type PathRule, type SandboxPlan } from "./sandbox-plan";
import {
  explainSeatbeltFailure,
  SANDBOX_EXEC,
  seatbeltArgs,
  seatbeltProfile,
  seatbeltStarted,
} from "./seatbelt";

/** A workspace's sandbox setting. */
export interface SandboxSettings {
  /** Run every command in the sandbox; where it cannot start, commands are refused, never run without it. */
  enabled: boolean;
  /** Let every command use the network (otherwise only one the person allows it for when approving). */
  network?: boolean;
  /** Folders commands may read although they are hidden (toolchains under the home: ~/.nvm, ~/.cargo). */
  readOnlyPaths?: readonly string[];
  /**
   * Folders and files outside the workspace commands may write besides it (a worktree chat's own part of its
   * repository's `.git`, so `git commit` works there); a read-only path inside one stays read-only.
   */
  writablePaths?: readonly string[];
  /**
   * Hosts the workspace's commands may reach by name through Pi Desk's proxy (`registry.npmjs.org`,
   * `*.githubusercontent.com`, either with `:port`); see network/host-pattern.ts. Absent or empty: none.
   */
  allowedHosts?: readonly string[];
  /** Resolves an allowed host name for the proxy (default: the OS resolver); tests point names at loopback. */
  resolveHost?: (name: string) => Promise<string[]>;
  /** Lets an allowed name lead to loopback and private addresses (default false; for tests). */
  allowLoopbackTargets?: boolean;
}

/** What the host knows that the sandbox needs. */
export interface SandboxSetup {
  /** The person's home, hidden from commands except for the workspace (default: os.homedir()). */
  homeDir?: string;
  /** More folders or files to hide: the Pi agent dir (~/.pi), Pi Desk's data dir. */
  hiddenPaths?: readonly string[];
  /** Folders shown again, read-only, inside hidden ones (the workspace's `SandboxSettings.readOnlyPaths`). */
  readOnlyPaths?: readonly string[];
  /** Paths commands may write besides the workspace (`SandboxSettings.writablePaths`). */
  writablePaths?: readonly string[];
  /** The PATH bwrap is looked up on (default: the host's own PATH, not the commands'). */
  searchPath?: string;
  /** The platform to sandbox for (default: process.platform); tests use it to see the other platforms' refusals. */
  platform?: NodeJS.Platform;
  /** Unix sockets outside the workspace that commands may still connect to (the network proxy's): see host-sockets.ts. */
  reachableSockets?: readonly string[];
  /** Lists the host's bound Unix sockets (default: the kernel's tables); tests make one vanish with it. */
  hostSockets?: () => readonly string[];
  /** Where the ALWAYS_HIDDEN paths are looked for (default "/"); tests point it at a folder of stand-ins. */
  systemRoot?: string;
  /** The Node that runs the network forwarder inside the sandbox (default: process.execPath, the app's own). */
  forwarderNode?: string;
  /** macOS's sandbox-exec (default `SANDBOX_EXEC`); tests on Linux put a stand-in there that records the profile. */
  sandboxExec?: string;
}

/**
 * How a sandboxed run ended: the command's outcome, or why the sandbox could not start (nothing ran then),
 * with the same as a kind for the page where it has one.
 */
export type SandboxedOutcome = { outcome: ProcessOutcome } | { failure: string; say?: RefusalText };

/** The sandbox of one workspace's commands. */
export interface CommandSandbox {
  /** Which sandbox this platform uses. */
  readonly kind: SandboxKind;
  /** Why no command can run sandboxed now (no bwrap on PATH, an unsupported platform); cheap, so asked per command. */
  unavailable(): string | undefined;
  /** The same as a kind and its parameters, for the page to word in its language. */
  unavailableSay(): RefusalText | undefined;
  /** Runs one command (`run.argv` is the unsandboxed argv) inside the sandbox; `true` is the full network. */
  run(run: RunProcessOptions, network: boolean | NetworkPolicy): Promise<SandboxedOutcome>;
}

/** The result of `checkSandbox`. */
export interface SandboxCheck {
  /** A trivial command ran in the sandbox and succeeded. */
  available: boolean;
  /** Which sandbox this platform uses. */
  kind: SandboxKind;
  /** What is wrong and how to fix it, when it is not available. */
  problem?: string;
}

/**
 * Hidden on every system, besides the person's home and the host's temp folder: sockets of daemons that would
 * run anything outside the sandbox (the user's and the system's systemd, D-Bus, container engines), and the
 * per-user runtime folders with ssh and gpg agents. Paths that do not exist are skipped. A second layer: every
 * socket the host has bound is hidden anyway (host-sockets.ts), but that list is read from the kernel, and these
 * stay hidden when it misses one (a daemon that binds its socket after the command started).
 */
export const ALWAYS_HIDDEN: readonly string[] = [
  "/run/user",
  "/run/systemd/private",
  "/run/dbus/system_bus_socket",
  "/var/run/dbus/system_bus_socket",
  "/run/docker.sock",
  "/var/run/docker.sock",
  "/run/podman",
  "/run/containerd",
];

/** Which sandbox a platform has. */
export function sandboxKind(platform: NodeJS.Platform = process.platform): SandboxKind {
  if (platform === "linux") return "bubblewrap";
  if (platform === "darwin") return "seatbelt";
  return "none";
}

/** The sandbox for a host: bubblewrap on Linux, Seatbelt on macOS, a refusal everywhere else. */
export function createSandbox(setup: SandboxSetup = {}): CommandSandbox {
  const platform = setup.platform ?? process.platform;
  const kind = sandboxKind(platform);
  const searchPath = setup.searchPath ?? process.env.PATH ?? "";
  // Looked up once per sandbox (run_command makes one per command, so a bwrap installed meanwhile is found),
  // not once for each question asked of it: each lookup walks the PATH.
  let located: { path: string | undefined } | undefined;
  const launcher = () => {
    located ??= {
      path:
        kind === "bubblewrap" ? findBubblewrap(searchPath) : executable(setup.sandboxExec ?? SANDBOX_EXEC),
    };
    return located.path;
  };
  const missing = (): { text: string; say: RefusalText } | undefined => {
    if (kind === "none") {
      const name = platform === "win32" ? "Windows" : platform;
      return {
        text:
          `Commands are set to run in a sandbox, but Pi Desk has no sandbox for ${name}, so the command did not run. ` +
          "Turn the sandbox off for this workspace in settings to run commands without it.",
        say: { id: "no-sandbox", platform: name },
      };
    }
    if (launcher() !== undefined) return undefined;
    if (kind === "seatbelt") {
      return {
        text:
          `Commands are set to run in a sandbox, but ${SANDBOX_EXEC} is missing, so the command did not run. ` +
          "Turn the sandbox off for this workspace in settings to run commands without it.",
        say: { id: "no-sandbox-exec", path: SANDBOX_EXEC },
      };
    }
    return {
      text: `Commands are set to run in a sandbox, but bubblewrap (bwrap) is not installed or not on the PATH, so the command did not run. ${INSTALL_BUBBLEWRAP}`,
      say: { id: "no-bubblewrap" },
    };
  };
  const unavailable = (): string | undefined => missing()?.text;

  return {
    kind,
    unavailable,
    unavailableSay: () => missing()?.say,
    async run(run, network) {
      const problem = unavailable();
      if (problem) return { failure: problem };
      const program = launcher() as string;
      const policy = toNetworkPolicy(network);
      let scratch: string | undefined;
      let proxy: PreparedNetwork | undefined;
      try {
        let tmp: string;
        let prepare: () => { prefix: string[]; sockets: readonly string[] };
        try {
          scratch = mkdtempSync(join(tmpdir(), "pi-desk-tmp-"));
          tmp = realpathSync(scratch);
          const commandHome = run.env.HOME;
          if (commandHome && isAbsolute(commandHome))
            mkdirSync(commandHome, { recursive: true, mode: 0o700 });
          // Made now if missing, so it can be shown: the model is told to read full-output files from there.
          if (run.outputDir) mkdirSync(run.outputDir, { recursive: true, mode: 0o700 });
          // The command's own proxy: it lives exactly as long as this run (background runs included).
          if (policy.kind === "hosts") {
            // bubblewrap: in the command's own network namespace; Seatbelt: on the host's loopback.
            const place: ProxyPlace =
              kind === "bubblewrap"
                ? { kind: "namespace", node: setup.forwarderNode ?? process.execPath }
                : { kind: "loopback" };
            proxy = await prepareNetwork(policy, place);
          }
          const folders = {
            workspace: run.cwd,
            scratch,
            commandHome,
            outputDir: run.outputDir,
            network: policy.kind === "full",
            proxyReadable: proxy?.readable,
            proxyPorts: proxy?.loopbackPorts,
          };
          prepare = () => {
            // Read per command: the sockets bound now. Seatbelt keeps every socket out while the network is off.
            const sockets = kind === "bubblewrap" ? (setup.hostSockets ?? hostSocketPaths)() : [];
            const plan = planFor(setup, { ...folders, sockets });
            const prefix = kind === "bubblewrap" ? bubblewrapArgs(plan) : seatbeltArgs(seatbeltProfile(plan));
            return { prefix, sockets };
          };
        } catch (error) {
          return setupFailure(error);
        }
        // The command's temp files go to a folder of its own that is on disk (not in memory like the tmpfs
        // over /tmp) and goes away with the run.
        const env = { ...run.env, ...proxy?.env, TMPDIR: tmp };
        for (let attempt = 1; ; attempt++) {
          let prepared: ReturnType<typeof prepare>;
          try {
            prepared = prepare();
          } catch (error) {
            return setupFailure(error);
          }
          const argv = [program, ...prepared.prefix, ...(proxy ? proxy.wrap(run.argv) : run.argv)];
          const onChannel = proxy?.receive;
          const ended = judge(kind, await runProcess({ ...run, argv, env, statusPipe: true, onChannel }));
          // Nothing ran when a socket went away between the look at the kernel's table and bwrap's start (a
          // daemon restarting): look again.
          if (attempt < 3 && "failure" in ended && socketVanished(ended.failure, prepared.sockets)) continue;
          const forwarder = proxy && "outcome" in ended ? forwarderFailure(ended.outcome) : undefined;
          return forwarder ?? ended;
        }
      } finally {
        await proxy?.dispose();
        if (scratch) rmSync(scratch, { recursive: true, force: true, maxRetries: 2 });
      }
    },
  };
}

function setupFailure(error: unknown): SandboxedOutcome {
  return { failure: `The sandbox could not be set up, so the command did not run: ${errorMessage(error)}` };
}

/** Tells the command's own ending from the sandbox's failure to start it (see bubblewrap.ts and seatbelt.ts). */
function judge(kind: SandboxKind, outcome: ProcessOutcome): SandboxedOutcome {
  if (outcome.spawnError) {
    return { failure: `The sandbox could not start, so the command did not run: ${outcome.spawnError}` };
  }
  // Killed on purpose: whether the command had started does not matter, the run is over either way.
  if (outcome.cancelled || outcome.timedOut) return { outcome };
  const status = outcome.statusText ?? "";
  if (kind === "bubblewrap") {
    const exitCode = readBubblewrapStatus(status);
    if (exitCode !== undefined) return { outcome: { ...outcome, exitCode } };
  } else if (seatbeltStarted(status)) {
    return { outcome };
  }
  // The sandbox itself was killed by a signal from outside: report it like any command killed so.
  if (outcome.signal) return { outcome };
  const printed = outcome.output.text;
  return {
    failure:
      kind === "bubblewrap"
        ? explainBubblewrapFailure(printed, outcome.exitCode)
        : explainSeatbeltFailure(printed, outcome.exitCode),
  };
}

/**
 * What a failed sandboxed command ran into, when its output shows it hit the git guard: said to the model
 * and on the card, since "Device or resource busy" alone points nowhere.
 */
export function sandboxLimitHint(output: string): string | undefined {
  const git = /\.git\/(hooks|config)\b[^\n]*(Read-only file system|Device or resource busy)/;
  if (!git.test(output)) return undefined;
  return (
    "The sandbox keeps .git/hooks and .git/config read-only, because git runs what they say later, outside " +
    "the sandbox. To change them, the user can turn the sandbox off for this workspace in Settings."
  );
}

/** What in a repository's `.git` makes git run programs: read-only inside the sandbox. */
const GIT_EXECUTABLE_STATE = ["hooks", "config"] as const;

/** The folders one command may write, and what it must not see, as a plan for the backends. */
function planFor(
  setup: SandboxSetup,
  run: {
    workspace: string;
    scratch: string;
    commandHome?: string;
    outputDir?: string;
    network: boolean;
    sockets: readonly string[];
    proxyReadable?: readonly string[];
    proxyPorts?: { http: number; socks: number };
  },
): SandboxPlan {
  const rules: PathRule[] = [];
  const add = (path: string | undefined, access: PathAccess) => {
    const rule = resolveRule(path, access);
    if (rule) rules.push(rule);
  };
  add(run.workspace, "read-write");
  // Git later runs, outside the sandbox, what `.git/hooks` and `.git/config` say (hooks, core.hooksPath,
  // core.fsmonitor, aliases): a command may commit, but not plant something there. Codex keeps all of
  // `.git` read-only; this keeps commits and branches working.
  for (const gitFile of GIT_EXECUTABLE_STATE) add(join(run.workspace, ".git", gitFile), "read-only");
  add(run.scratch, "read-write");
  add(run.commandHome, "read-write");
  add(run.outputDir, "read-only");
  add("/tmp", "scratch");
  add(setup.homeDir ?? homedir(), "hidden");
  // The host's temp folder holds other commands' homes and full outputs when it is not /tmp.
  add(tmpdir(), "hidden");
  const systemRoot = setup.systemRoot ?? "/";
  for (const path of ALWAYS_HIDDEN) add(join(systemRoot, path), "hidden");
  for (const path of setup.hiddenPaths ?? []) add(path, "hidden");
  for (const path of setup.readOnlyPaths ?? []) add(path, "read-only");
  // The deeper rule wins (orderRules): a read-only file inside a writable folder stays read-only.
  for (const path of setup.writablePaths ?? []) add(path, "read-write");
  // What the forwarder runs on, shown last so no hidden folder covers it.
  for (const path of run.proxyReadable ?? []) add(path, "read-only");
  // Last, so it sees every folder the command may write: sockets there are its own (a dev server's).
  rules.push(...hiddenSocketRules(run.sockets, rules, setup.reachableSockets ?? []));
  const workspace = resolveRule(run.workspace, "read-write")?.path ?? run.workspace;
  const proxyPorts = run.proxyPorts ? [run.proxyPorts.http, run.proxyPorts.socks] : undefined;
  return { workspace, rules: orderRules(rules), network: run.network, ...(proxyPorts ? { proxyPorts } : {}) };
}

/** The path when it is an executable file. */
function executable(path: string): string | undefined {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return undefined;
  }
}

/** A rule on the real path; none for a path that does not exist (nothing to hide, nothing to bind). */
function resolveRule(path: string | undefined, access: PathAccess): PathRule | undefined {
  if (!path || !isAbsolute(path)) return undefined;
  try {
    const real = realpathSync(path);
    return { path: real, access, directory: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}
