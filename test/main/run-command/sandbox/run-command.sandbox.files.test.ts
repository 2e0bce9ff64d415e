import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeWorkspace, runTool } from "../run-command-harness";
import { makeOutsideDir, onLinux } from "./sandbox-harness";

const SANDBOX = { enabled: true } as const;

describe.runIf(onLinux)("run_command in the sandbox: files", () => {
  it("writes only inside the workspace, its HOME and its temp folder; nothing outside changes", async () => {
    const workspace = makeWorkspace();
    const outside = makeOutsideDir("outside");
    writeFileSync(join(outside, "keep.txt"), "original\n");
    const sibling = makeWorkspace();
    const command = [
      "echo in > inside.txt && echo inside-ok",
      `echo x > ${outside}/new.txt || echo outside-blocked`,
      `echo changed > ${outside}/keep.txt || echo overwrite-blocked`,
      `rm ${outside}/keep.txt || echo rm-blocked`,
      `echo x > ${sibling}/new.txt || echo sibling-blocked`,
      "touch /etc/pi-desk-sandbox-probe || echo etc-blocked",
      'echo t > "$TMPDIR/t" && echo tmpdir-ok',
      'echo h > "$HOME/.probe" && echo home-ok',
      'echo "TMPDIR=$TMPDIR"',
    ].join("\n");
    const { text, details } = await runTool({ workspaceRoot: workspace, sandbox: SANDBOX }, { command });
    expect(details.status).toBe("succeeded");
    for (const word of [
      "inside-ok",
      "outside-blocked",
      "overwrite-blocked",
      "rm-blocked",
      "sibling-blocked",
    ]) {
      expect(text).toContain(word);
    }
    for (const word of ["etc-blocked", "tmpdir-ok", "home-ok"]) expect(text).toContain(word);
    expect(text).toMatch(/Read-only file system/);
    expect(readFileSync(join(workspace, "inside.txt"), "utf8")).toBe("in\n");
    expect(readdirSync(outside)).toEqual(["keep.txt"]);
    expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("original\n");
    expect(readdirSync(sibling)).toEqual([]);
    expect(existsSync("/etc/pi-desk-sandbox-probe")).toBe(false);
    // The private temp folder is the command's alone and goes away with the run.
    const tmp = /^TMPDIR=(.+)$/m.exec(text)?.[1] ?? "";
    expect(tmp).toMatch(/pi-desk-tmp-/);
    expect(existsSync(tmp)).toBe(false);
  });

  it("hides the person's home except the workspace in it, and the host's data folders", async () => {
    const home = makeOutsideDir("home");
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
    writeFileSync(join(home, ".netrc"), "machine example.com password hunter2\n");
    const workspace = join(home, "code", "project");
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, "README"), "readme text\n");
    const agentDir = makeOutsideDir("agent");
    writeFileSync(join(agentDir, "auth.json"), '{"token":"TOKEN-4711"}\n');
    // A data folder inside the workspace stays hidden too: the deeper rule wins.
    const dataDir = join(workspace, ".pi-desk");
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, "audit.jsonl"), "AUDIT-RECORD\n");

    const command = [
      `cat ${home}/.ssh/id_ed25519 || echo key-hidden`,
      `cat ${home}/.netrc || echo netrc-hidden`,
      `echo "home: $(ls -A ${home})"`,
      `touch ${home}/planted || echo home-readonly`,
      "cat README",
      "echo more > notes.txt && echo workspace-writable",
      `cat ${agentDir}/auth.json || echo agent-hidden`,
      `echo "data: $(ls -A ${dataDir})"`,
      "pwd",
    ].join("\n");
    const { text, details } = await runTool(
      { workspaceRoot: workspace, sandbox: SANDBOX, personHomeDir: home, hiddenPaths: [agentDir, dataDir] },
      { command },
    );
    expect(details.status).toBe("succeeded");
    expect(text).not.toContain("PRIVATE KEY");
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("TOKEN-4711");
    expect(text).not.toContain("AUDIT-RECORD");
    for (const word of [
      "key-hidden",
      "netrc-hidden",
      "home-readonly",
      "agent-hidden",
      "workspace-writable",
    ]) {
      expect(text).toContain(word);
    }
    expect(text).toContain("home: code\n");
    expect(text).toContain("readme text");
    expect(text).toContain("data: \n");
    expect(text).toContain(`\n${workspace}`);
    expect(existsSync(join(home, "planted"))).toBe(false);
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("more\n");
  });

  it("runs tools from a folder the person chose to show inside the hidden home, without letting it change them", async () => {
    const home = makeOutsideDir("home");
    const bin = join(home, ".toolchain", "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "hello-tool"), "#!/bin/sh\necho hello from the toolchain\n", { mode: 0o755 });
    writeFileSync(join(home, ".netrc"), "machine example.com password hunter2\n");
    const { text } = await runTool(
      {
        workspaceRoot: makeWorkspace(),
        sandbox: { enabled: true, readOnlyPaths: [join(home, ".toolchain")] },
        personHomeDir: home,
      },
      {
        command: `${bin}/hello-tool; touch ${bin}/x || echo toolchain-read-only; cat ${home}/.netrc || echo netrc-hidden`,
      },
    );
    expect(text).toContain("hello from the toolchain");
    expect(text).toContain("toolchain-read-only");
    expect(text).toContain("netrc-hidden");
    expect(text).not.toContain("hunter2");
  });

  it("gives a command running as root no way to make the disk or the kernel's settings writable", async () => {
    const command = [
      "mount -o remount,rw / || echo remount-blocked",
      "test -w /proc/sys/kernel/core_pattern || echo sysctl-read-only",
      "grep CapEff /proc/self/status",
    ].join("\n");
    const { text } = await runTool({ workspaceRoot: makeWorkspace(), sandbox: SANDBOX }, { command });
    expect(text).toContain("remount-blocked");
    expect(text).toContain("sysctl-read-only");
    expect(text).toMatch(/^CapEff:\s+0+$/m);
  });

  it("lets a later command read a full-output file it was pointed to, but not change it", async () => {
    const workspaceRoot = makeWorkspace();
    const first = await runTool({ workspaceRoot, sandbox: SANDBOX }, { command: "seq 1 5000" });
    const path = first.details.fullOutputPath as string;
    expect(first.text).toContain(`Full output: ${path}`);
    const { text } = await runTool(
      { workspaceRoot, sandbox: SANDBOX },
      { command: `head -n 1 ${path}; echo x >> ${path} || echo output-read-only` },
    );
    expect(text).toMatch(/^1\n/);
    expect(text).toContain("output-read-only");
    expect(readFileSync(path, "utf8").endsWith("5000\n")).toBe(true);
  });

  it("keeps bwrap's status descriptor away from the command, so it cannot fake an exit code", async () => {
    const { details } = await runTool(
      { workspaceRoot: makeWorkspace(), sandbox: SANDBOX },
      { command: `echo '{ "exit-code": 0 }' >&3; exit 7` },
    );
    expect(details).toMatchObject({ status: "failed", exitCode: 7 });
  });

  it("lets a command commit, but not plant a git hook or change git's config, which run later outside", async () => {
    const workspace = makeWorkspace();
    execFileSync("git", ["init", "-q", workspace]);
    writeFileSync(join(workspace, "a.txt"), "a\n");
    const configBefore = readFileSync(join(workspace, ".git", "config"), "utf8");
    const command = [
      "printf '#!/bin/sh\\necho planted\\n' > .git/hooks/pre-commit || echo hook-blocked",
      "git config core.hooksPath .evil || echo config-blocked",
      "git add a.txt && git -c user.name=pi -c user.email=pi@desk commit -qm first && echo committed",
    ].join("\n");
    const { text } = await runTool({ workspaceRoot: workspace, sandbox: SANDBOX }, { command });
    for (const word of ["hook-blocked", "config-blocked", "committed"]) expect(text).toContain(word);
    expect(text).not.toContain("keeps .git/hooks and .git/config read-only"); // it succeeded: no hint
    expect(existsSync(join(workspace, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(workspace, ".git", "config"), "utf8")).toBe(configBefore);
    expect(execFileSync("git", ["-C", workspace, "log", "--format=%s"], { encoding: "utf8" })).toBe(
      "first\n",
    );
  });

  it("tells the model and the person why a git change failed in the sandbox, and what to do", async () => {
    const workspace = makeWorkspace();
    execFileSync("git", ["init", "-q", workspace]);
    const { text, details } = await runTool(
      { workspaceRoot: workspace, sandbox: SANDBOX },
      { command: "git remote add origin https://example.com/repo.git" },
    );
    expect(details).toMatchObject({ status: "failed", exitCode: expect.any(Number) });
    expect(text).toMatch(/Device or resource busy[\s\S]*keeps \.git\/hooks and \.git\/config read-only/);
    expect(details.reason).toContain("turn the sandbox off for this workspace in Settings");
  });
});
