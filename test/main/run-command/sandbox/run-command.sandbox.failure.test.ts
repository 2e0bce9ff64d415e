import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../../../src/main/run-command/sandbox/sandbox";
import { checkSandbox } from "../../../../src/main/run-command/sandbox/sandbox-check";
import { makeWorkspace, runTool } from "../run-command-harness";
import { makeOutsideDir, onLinux } from "./sandbox-harness";

/** A folder holding a `bwrap` script that fails the way bwrap does where user namespaces are off. */
function fakeBwrapDir(): string {
  const dir = makeOutsideDir("fake-bwrap");
  const script = join(dir, "bwrap");
  writeFileSync(
    script,
    "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n",
  );
  chmodSync(script, 0o755);
  return dir;
}

describe.runIf(onLinux)("run_command in the sandbox: fail closed", () => {
  it("refuses, before asking, when bwrap is not on the host's PATH, and runs nothing", async () => {
    const workspaceRoot = makeWorkspace();
    let asked = 0;
    const { text, details } = await runTool(
      {
        workspaceRoot,
        sandbox: { enabled: true },
        sandboxSearchPath: makeOutsideDir("no-bwrap"),
        approve: async () => {
          asked += 1;
          return { kind: "approve" };
        },
      },
      { command: "touch ran" },
    );
    expect(details).toMatchObject({ status: "refused", exitCode: null, durationMs: 0 });
    expect(text).toContain(
      "bubblewrap (bwrap) is not installed or not on the PATH, so the command did not run",
    );
    expect(text).toContain("Install bubblewrap (Debian/Ubuntu: apt install bubblewrap");
    expect(text).toContain("turn the sandbox off for this workspace in settings");
    expect(details.reason).toBe(text);
    expect(asked).toBe(0);
    expect(existsSync(join(workspaceRoot, "ran"))).toBe(false);
  });

  it("refuses when bwrap cannot set up the sandbox, says why, and runs nothing", async () => {
    const workspaceRoot = makeWorkspace();
    const { text, details } = await runTool(
      { workspaceRoot, sandbox: { enabled: true }, sandboxSearchPath: fakeBwrapDir() },
      { command: "touch ran" },
    );
    expect(details.status).toBe("refused");
    expect(text).toMatch(
      /^The sandbox \(bubblewrap\) could not start, so the command did not run: bwrap: No permissions/,
    );
    expect(text).toContain("Unprivileged user namespaces look disabled");
    expect(existsSync(join(workspaceRoot, "ran"))).toBe(false);
  });

  it("tells a real bwrap setup failure from the command's own exit 1", async () => {
    const workspaceRoot = makeWorkspace();
    // bwrap cannot make a mount point for the host's /proc/<pid> inside the sandbox's own /proc: it exits 1
    // before the command starts, exactly like a missing user namespace would.
    const { text, details } = await runTool(
      { workspaceRoot, sandbox: { enabled: true }, hiddenPaths: [`/proc/${process.pid}`] },
      { command: "touch ran; exit 1" },
    );
    expect(details.status).toBe("refused");
    expect(text).toMatch(/could not start, so the command did not run: bwrap: Can't mkdir/);
    expect(existsSync(join(workspaceRoot, "ran"))).toBe(false);
  });

  it("has no sandbox on Windows and says so instead of running unsandboxed", async () => {
    const sandbox = createSandbox({ platform: "win32" });
    expect(sandbox.kind).toBe("none");
    expect(sandbox.unavailable()).toMatch(
      /no sandbox for Windows, so the command did not run\. Turn the sandbox off/,
    );
    const ran = await sandbox.run(
      { argv: ["/bin/sh", "-c", "touch ran"], cwd: makeWorkspace(), env: {}, timeoutMs: 5_000 },
      false,
    );
    expect(ran).toEqual({ failure: sandbox.unavailable() });
  });

  it("finds the sandbox working at start-up, and names what is missing when it is not", async () => {
    expect(await checkSandbox()).toEqual({ available: true, kind: "bubblewrap" });
    const missing = await checkSandbox({ searchPath: makeOutsideDir("no-bwrap") });
    expect(missing).toMatchObject({ available: false, kind: "bubblewrap" });
    expect(missing.problem).toContain("apt install bubblewrap");
    const broken = await checkSandbox({ searchPath: fakeBwrapDir() });
    expect(broken.problem).toContain("bwrap: No permissions to creating new namespace");
  });
});
