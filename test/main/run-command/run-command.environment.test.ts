import { homedir } from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorkspace, runTool } from "./run-command-harness";

const SECRETS = {
  ANTHROPIC_API_KEY: "sk-ant-should-never-leak",
  OPENAI_API_KEY: "sk-openai-should-never-leak",
  GITHUB_TOKEN: "ghp_should_never_leak",
  NODE_OPTIONS: "--require /tmp/evil.js",
  ELECTRON_RUN_AS_NODE: "electron-as-node-should-never-leak",
};

beforeEach(() => Object.assign(process.env, SECRETS));
afterEach(() => {
  for (const name of Object.keys(SECRETS)) delete process.env[name];
});

describe("run_command: environment", () => {
  it("builds the environment from an allowlist, so the host's secrets never reach a command", async () => {
    const { text } = await runTool({ workspaceRoot: makeWorkspace() }, { command: "env" });
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(text).not.toContain(name);
      expect(text).not.toContain(value);
    }
    expect(text).toMatch(/^PATH=\//m);
    expect(text).toMatch(/^TERM=dumb$/m);
    expect(text).toMatch(/^GIT_TERMINAL_PROMPT=0$/m);
    expect(text).toMatch(/^PAGER=cat$/m);
  });

  it("gives commands a private HOME, not the person's", async () => {
    const { text } = await runTool({ workspaceRoot: makeWorkspace() }, { command: 'echo "$HOME"' });
    expect(text.trim()).not.toBe(homedir());
    expect(text.trim()).toMatch(/pi-desk-homes\/[0-9a-f]{16}$/);
  });

  it("passes the variables the person chose", async () => {
    const { text } = await runTool(
      { workspaceRoot: makeWorkspace(), env: { FEATURE_FLAG: "on" } },
      { command: 'echo "flag=$FEATURE_FLAG"' },
    );
    expect(text.trim()).toBe("flag=on");
  });

  it("drops relative PATH entries, so a file in the workspace cannot shadow a program", async () => {
    const original = process.env.PATH;
    process.env.PATH = `.:bin::${original}`;
    try {
      const { text } = await runTool({ workspaceRoot: makeWorkspace() }, { command: 'echo "$PATH"' });
      expect(
        text
          .trim()
          .split(":")
          .every((entry) => entry.startsWith("/")),
      ).toBe(true);
    } finally {
      process.env.PATH = original;
    }
  });
});
