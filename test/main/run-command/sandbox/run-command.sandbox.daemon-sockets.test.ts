import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALWAYS_HIDDEN, createSandbox } from "../../../../src/main/run-command/sandbox/sandbox";
import { makeWorkspace } from "../run-command-harness";
import { makeOutsideDir, onLinux } from "./sandbox-harness";

/**
 * The daemons' sockets and folders the sandbox hides by name, whatever the kernel's socket table says (a daemon
 * that binds after the command started): each runs anything it is asked to outside the sandbox. Kept here, not
 * read from the code, so that emptying the code's list fails this file.
 */
const DAEMON_PATHS: Record<string, "file" | "folder"> = {
  "/run/user": "folder",
  "/run/systemd/private": "file",
  "/run/dbus/system_bus_socket": "file",
  "/var/run/dbus/system_bus_socket": "file",
  "/run/docker.sock": "file",
  "/var/run/docker.sock": "file",
  "/run/podman": "folder",
  "/run/containerd": "folder",
};

const MARKER = "reachable-daemon";

/** What each path is inside the sandbox: its type, and what reading or listing it shows. */
async function lookInside(paths: readonly string[], systemRoot?: string) {
  const workspace = makeWorkspace();
  const script = paths
    .map(
      (path) =>
        `printf '%s|%s|%s|%s\\n' '${path}' "$(stat -c %F '${path}')" "$(stat -f -c %T '${path}')" "$(if [ -d '${path}' ]; then ls -A '${path}' | tr '\\n' ' '; else cat '${path}'; fi 2>/dev/null)"`,
    )
    .join("\n");
  const ran = await createSandbox({ systemRoot }).run(
    {
      argv: ["/bin/sh", "-c", script],
      cwd: workspace,
      env: { PATH: "/usr/bin:/bin", HOME: join(workspace, ".home"), LANG: "C.UTF-8" },
      timeoutMs: 20_000,
    },
    false,
  );
  if (!("outcome" in ran)) throw new Error(ran.failure);
  const seen = new Map<string, { type: string; fs: string; content: string }>();
  for (const line of ran.outcome.output.text.split("\n")) {
    const [path, type, fs, content] = line.split("|");
    if (path && type !== undefined) seen.set(path, { type, fs: fs ?? "", content: (content ?? "").trim() });
  }
  return seen;
}

describe.runIf(onLinux)("run_command in the sandbox: the daemons' sockets hidden by name", () => {
  it("has a stand-in here for every path the sandbox lists", () => {
    expect(Object.keys(DAEMON_PATHS)).toEqual(expect.arrayContaining([...ALWAYS_HIDDEN]));
  });

  it("hides each listed path: stand-ins at the same places under another root, through real bubblewrap", async () => {
    // The machine may have none of these daemons: the same list is laid over a folder of stand-ins instead,
    // each holding a marker a command must not see.
    const root = makeOutsideDir("system");
    const standIns: string[] = [];
    for (const [path, kind] of Object.entries(DAEMON_PATHS)) {
      const standIn = join(root, path);
      if (kind === "folder") {
        mkdirSync(standIn, { recursive: true });
        writeFileSync(join(standIn, MARKER), "");
      } else {
        mkdirSync(dirname(standIn), { recursive: true });
        writeFileSync(standIn, MARKER);
      }
      standIns.push(standIn);
    }
    const inside = await lookInside([...standIns, join(root, "run")], root);
    for (const [path, kind] of Object.entries(DAEMON_PATHS)) {
      const seen = inside.get(join(root, path));
      expect(seen, path).toBeDefined();
      expect(seen?.content, path).toBe("");
      // A file is covered by /dev/null, a folder by an empty tmpfs.
      expect(seen?.type, path).toBe(kind === "folder" ? "directory" : "character special file");
    }
    // Only the listed paths are covered, not the folder they are in.
    expect(inside.get(join(root, "run"))?.content).toContain("docker.sock");
  });

  const present = Object.keys(DAEMON_PATHS).filter((path) => existsSync(path));
  it.runIf(present.length > 0)("hides each listed path this machine has", async () => {
    const inside = await lookInside(present);
    for (const path of present) {
      const seen = inside.get(path);
      expect(seen, path).toBeDefined();
      expect(seen?.content, path).toBe("");
      if (statSync(realpathSync(path)).isDirectory()) {
        // An empty tmpfs of the sandbox's own, whatever the host's folder is.
        expect(seen?.type, path).toBe("directory");
        expect(seen?.fs, path).toBe("tmpfs");
      } else {
        expect(seen?.type, path).toBe("character special file");
      }
    }
  });
});
