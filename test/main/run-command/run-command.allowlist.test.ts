// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${...} is bash, not a template
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkspace, runTool } from "./run-command-harness";

describe("run_command: allowlist", () => {
  it("refuses a binary outside the allowlist, names what is allowed, and runs nothing", async () => {
    const workspace = makeWorkspace();
    const { text, details, result } = await runTool(
      { workspaceRoot: workspace, allowedBinaries: ["npm"] },
      { command: "cat /etc/passwd" },
    );
    expect(result.isError).toBe(true);
    expect(details).toMatchObject({ status: "refused", exitCode: null, totalBytes: 0 });
    expect(text).toContain('"cat"');
    expect(text).toContain("npm");
    expect(text).not.toContain("root:");
  });

  it.each([
    "echo ok; touch ran",
    "echo ok && touch ran",
    "echo $(touch ran)",
    "echo `touch ran`",
    "echo ok > ran",
    "bash -c 'touch ran'",
    "env touch ran",
    "eval 'touch ran'",
    "PATH=/tmp echo ok; touch ran",
    "./touch ran",
    "x='$(touch ran)'; echo ${x@P}",
    "x='a[$(touch ran)]'; echo $((x))",
  ])("holds against %s: nothing outside the list runs", async (command) => {
    const workspace = makeWorkspace();
    const { details } = await runTool({ workspaceRoot: workspace, allowedBinaries: ["echo"] }, { command });
    expect(details.status).toBe("refused");
    expect(existsSync(join(workspace, "ran"))).toBe(false);
  });

  it("lets harmless commands on the list through, quoted look-alikes included", async () => {
    const workspace = makeWorkspace();
    const options = { workspaceRoot: workspace, allowedBinaries: ["echo", "seq", "tail"] };
    expect((await runTool(options, { command: "echo '$(touch ran)'" })).text.trim()).toBe("$(touch ran)");
    expect((await runTool(options, { command: "seq 1 5 | tail -n 1 2>&1" })).text.trim()).toBe("5");
    expect(existsSync(join(workspace, "ran"))).toBe(false);
  });

  it("lets everything through to approval when no allowlist is set", async () => {
    const workspace = makeWorkspace();
    const { details } = await runTool({ workspaceRoot: workspace }, { command: "touch ran && echo ok" });
    expect(details.status).toBe("succeeded");
    expect(existsSync(join(workspace, "ran"))).toBe(true);
  });
});
