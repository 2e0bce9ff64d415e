import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { version } from "../../../package.json";
import { errorMessage } from "../base/errors";
import { DeskHost } from "../core/desk-host";
import { resolveWorkspace } from "../core/workspace";
import { DEFAULT_OUTPUT_BUDGET_BYTES, DEFAULT_OUTPUT_QUOTA_BYTES } from "../run-command";
import { startLoopbackServer } from "./loopback-server";
import { isLoopbackAddress } from "./request-guard";

/**
 * The browser host's entry:
 * `npm run serve -- --workspace <folder> [--workspace <another>] [--port <n>] [--host <address>] [--allow <program,program>]
 *  [--output-budget <MiB>] [--output-quota <MiB>] [--changes-budget <MiB>] [--changes-max-files <n>]
 *  [--no-changes]`.
 *
 * For tests only: `--resolve-host <name>=<address>` (repeatable) makes the sandbox's network proxy resolve
 * that name to that address instead of asking the OS, and `--allow-loopback-targets` lets an allowed name
 * lead to loopback and private addresses (fake upstreams on 127.0.0.2). Never for real use: both take away
 * the proxy's guard against names that point at this machine or the LAN.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      workspace: { type: "string", short: "w", multiple: true },
      port: { type: "string", short: "p", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
      allow: { type: "string" },
      "output-budget": { type: "string" },
      "output-quota": { type: "string" },
      "changes-budget": { type: "string" },
      "changes-max-files": { type: "string" },
      "no-changes": { type: "boolean", default: false },
      "resolve-host": { type: "string", multiple: true },
      "allow-loopback-targets": { type: "boolean", default: false },
    },
  });
  if (!values.workspace?.length) {
    throw new Error(
      "Give the folder to work in: npm run serve -- --workspace <folder> (again for each more folder to open).",
    );
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(
      `--port must be a whole number from 0 to 65535 (0 picks a free port), got "${values.port}".`,
    );
  }
  // npm runs scripts from the package folder; INIT_CWD is where the person typed the command.
  const workspaces = await Promise.all(
    values.workspace.map((folder) =>
      resolveWorkspace(resolve(process.env.INIT_CWD ?? process.cwd(), folder)),
    ),
  );
  if (!isLoopbackAddress(values.host)) {
    console.warn(
      `Warning: listening on ${values.host}, not loopback. Anyone who can reach it and has the token can run ` +
        "commands on this machine. Prefer an SSH tunnel to a loopback host.",
    );
  }

  const allowedBinaries = values.allow
    ?.split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const outputBudgetBytes = mebibytes("--output-budget", values["output-budget"], "a command's saved output");
  const outputQuotaBytes = mebibytes("--output-quota", values["output-quota"], "a workspace's saved outputs");
  if ((outputQuotaBytes ?? DEFAULT_OUTPUT_QUOTA_BYTES) < (outputBudgetBytes ?? DEFAULT_OUTPUT_BUDGET_BYTES)) {
    throw new Error(
      "--output-quota must be at least --output-budget (the default budget is 256 MiB, the default quota 2048 MiB).",
    );
  }
  const changesBudget = mebibytes(
    "--changes-budget",
    values["changes-budget"],
    "a workspace's change records",
  );
  const networkTestHooks = testNetwork(values["resolve-host"], values["allow-loopback-targets"]);
  const changesMaxFiles = fileCount("--changes-max-files", values["changes-max-files"]);
  const host = await DeskHost.create({
    shell: "browser",
    version,
    workspaces,
    commands: {
      allowedBinaries,
      outputBudgetBytes,
      outputQuotaBytes,
      ...(networkTestHooks ? { networkTestHooks } : {}),
    },
    // What each command changed is recorded (for undo) unless the person says not to.
    changes: values["no-changes"]
      ? false
      : {
          ...(changesBudget ? { budgetBytes: changesBudget } : {}),
          ...(changesMaxFiles ? { maxFiles: changesMaxFiles } : {}),
        },
  });
  const rendererDir = fileURLToPath(new URL("../renderer", import.meta.url));
  const server = await startLoopbackServer({ host, rendererDir, port, bindAddress: values.host });
  // The URL without its token (the origin): enough for a second Pi Desk to say where this one is, and
  // nothing another local user reading the data folder could use.
  host.setReach(`browser host on ${new URL(server.url).origin}`);
  console.log(`Pi Desk is serving ${workspaces.map((folder) => folder.path).join(", ")}`);
  console.log(`Open ${server.url}`);

  // Every way out the process can see ends the running commands and gives the workspace up; the lock's
  // own exit hook is the last resort for what no handler catches (a second signal during the stop).
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.race([
      server.close().then(() => host.dispose()),
      new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref()),
    ]).catch((error: unknown) => console.error(`Pi Desk: ${errorMessage(error)}`));
    process.exit(code);
  };
  process.once("SIGINT", () => void stop(0));
  process.once("SIGTERM", () => void stop(0));
  const crash = (error: unknown) => {
    console.error(`Pi Desk stopped on an unexpected error: ${error instanceof Error ? error.stack : error}`);
    void stop(1);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
}

/** How long a stop waits for the commands and the session to end before the process leaves anyway. */
const STOP_GRACE_MS = 15_000;

/**
 * The test-only network flags as the proxy's hooks; undefined when neither is given. A name given with
 * `--resolve-host` resolves to its address only; every other name still goes to the OS resolver.
 */
function testNetwork(
  resolves: string[] | undefined,
  allowLoopbackTargets: boolean | undefined,
): { resolveHost?: (name: string) => Promise<string[]>; allowLoopbackTargets?: boolean } | undefined {
  if (!resolves?.length && !allowLoopbackTargets) return undefined;
  const names = new Map<string, string>();
  for (const pair of resolves ?? []) {
    const [name, address] = pair.split("=");
    if (!name || !address || isIP(address) === 0) {
      throw new Error(
        `--resolve-host takes <name>=<IP address> (for tests: --resolve-host registry.test=127.0.0.2), got "${pair}".`,
      );
    }
    names.set(name.toLowerCase(), address);
  }
  console.warn(
    "Warning: --resolve-host / --allow-loopback-targets are for tests: sandboxed commands' allowed names may lead to this machine.",
  );
  return {
    ...(names.size > 0
      ? {
          resolveHost: async (name: string) => {
            const known = names.get(name.toLowerCase());
            if (known) return [known];
            return (await lookup(name, { all: true })).map((entry) => entry.address);
          },
        }
      : {}),
    ...(allowLoopbackTargets ? { allowLoopbackTargets: true } : {}),
  };
}

/** A flag given in MiB, as bytes; absent stays absent (the host's default). */
function mebibytes(flag: string, value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  const mib = Number(value);
  if (!Number.isInteger(mib) || mib < 1 || mib > 1024 * 1024) {
    throw new Error(
      `${flag} is the most ${what} may take on disk, in MiB: a whole number from 1 to 1048576, got "${value}".`,
    );
  }
  return mib * 1024 * 1024;
}

/** `--changes-max-files`: the most files (not ignored) recording handles; absent stays the default. */
function fileCount(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 10_000_000) {
    throw new Error(
      `${flag} is the most files (not ignored) a workspace may hold with recording on: a whole number ` +
        `from 1 to 10000000 (500000 by default), got "${value}".`,
    );
  }
  return count;
}

main().catch((error: unknown) => {
  console.error(errorMessage(error));
  process.exit(1);
});
