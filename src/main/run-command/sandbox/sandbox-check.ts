import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, type SandboxCheck, type SandboxSetup } from "./sandbox";

/**
 * The start-up check: runs `true` in the sandbox exactly as commands run, so it finds what would stop them
 * (no bwrap, user namespaces disabled, a profile sandbox-exec rejects) before the first command does.
 */
export async function checkSandbox(setup: SandboxSetup = {}): Promise<SandboxCheck> {
  const sandbox = createSandbox(setup);
  const missing = sandbox.unavailable();
  if (missing) return { available: false, kind: sandbox.kind, problem: missing };
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-sandbox-check-"));
  try {
    const ran = await sandbox.run(
      {
        argv: ["/bin/sh", "-c", "true"],
        cwd: workspace,
        env: { PATH: "/usr/bin:/bin", HOME: workspace, LANG: "C.UTF-8" },
        timeoutMs: 15_000,
        outputDir: join(workspace, "output"),
      },
      false,
    );
    if ("failure" in ran) return { available: false, kind: sandbox.kind, problem: ran.failure };
    const { outcome } = ran;
    if (outcome.exitCode === 0) return { available: true, kind: sandbox.kind };
    const ending = outcome.timedOut ? "did not finish in 15 seconds" : `exited with code ${outcome.exitCode}`;
    const printed = outcome.output.text.trim();
    return {
      available: false,
      kind: sandbox.kind,
      problem:
        `A trivial command (true) in the sandbox ${ending}${printed ? `: ${printed}` : ""}. ` +
        "Turn the sandbox off for this workspace in settings until this is fixed.",
    };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
