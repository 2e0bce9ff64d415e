import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DeskModels } from "../../../src/main/agent/model-runtime";
import { SCRIPTED_MODEL_ID, SCRIPTED_PROVIDER } from "../../../src/main/agent/scripted-model";
import { writeScript } from "./session-harness";

// Before any import: Pi reads its agent dir when imported.
const agentDir = process.env.PI_CODING_AGENT_DIR as string;
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** Only Anthropic has a key, whatever the machine's environment holds. */
function onlyAnthropicKey() {
  for (const name of [
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "OPENROUTER_API_KEY",
    "GROQ_API_KEY",
    "XAI_API_KEY",
  ]) {
    vi.stubEnv(name, undefined);
  }
  vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-test");
}

describe("DeskModels with PI_DESK_SCRIPT", () => {
  it("offers only the scripted model, and refuses any other", async () => {
    onlyAnthropicKey();
    const script = writeScript([[{ type: "text", text: "hi" }]]);
    const models = await DeskModels.create({ env: { PI_DESK_SCRIPT: script } });

    expect(models.list()).toEqual([
      expect.objectContaining({
        provider: SCRIPTED_PROVIDER,
        id: SCRIPTED_MODEL_ID,
        // The file's name, not its whole path: the model picker has room for a name.
        name: `Scripted model (${basename(script)})`,
        hasKey: true,
        scripted: true,
      }),
    ]);
    expect(models.pick()).toBe(models.scriptedModel);
    expect(models.pick({ provider: SCRIPTED_PROVIDER, id: SCRIPTED_MODEL_ID })).toBe(models.scriptedModel);
    expect(() => models.pick({ provider: "anthropic", id: "claude-sonnet-4-5" })).toThrow(
      "PI_DESK_SCRIPT is set, so the scripted model is the only model. Unset PI_DESK_SCRIPT to use anthropic/claude-sonnet-4-5.",
    );
    // Scripted runs keep credentials in memory: nothing is written to the agent dir.
    expect(existsSync(join(agentDir, "auth.json"))).toBe(false);
  });

  it("fails to start with the script's own error", async () => {
    const script = writeScript([[{ type: "toolCall", name: "run_command" }]]);
    await expect(DeskModels.create({ env: { PI_DESK_SCRIPT: script } })).rejects.toThrow(
      `PI_DESK_SCRIPT ${script}: turn 1, block 1 (toolCall): missing field "arguments".`,
    );
  });
});

describe("DeskModels with real providers", () => {
  it("starts without touching the network, even when not offline", async () => {
    onlyAnthropicKey();
    vi.stubEnv("PI_OFFLINE", undefined);
    const connect = vi.spyOn(net.Socket.prototype, "connect");
    const started = Date.now();

    const models = await DeskModels.create({ env: {} });
    models.list();

    expect(connect).not.toHaveBeenCalled();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(models.problem()).toBeUndefined();
    expect(models.scriptedModel).toBeUndefined();
  });

  it("lists Pi's models, saying which have a key and how they think", async () => {
    onlyAnthropicKey();
    const models = await DeskModels.create({ env: {} });

    const all = models.list();
    const withKey = models.list({ withKeyOnly: true });
    expect(all.length).toBeGreaterThan(withKey.length);
    expect(new Set(withKey.map((model) => model.provider))).toEqual(new Set(["anthropic"]));
    expect(withKey.every((model) => model.keySource === "environment")).toBe(true);
    const sonnet = all.find((model) => model.provider === "anthropic" && model.id === "claude-sonnet-4-5");
    expect(sonnet).toMatchObject({
      providerName: "Anthropic",
      hasKey: true,
      reasoning: true,
      scripted: false,
    });
    expect(sonnet?.thinkingLevels[0]).toBe("off");
    expect(sonnet?.thinkingLevels.length).toBeGreaterThan(1);
    expect(all.find((model) => model.provider === "google")).toMatchObject({ hasKey: false });
  });

  it("picks a model by reference, or says what is missing", async () => {
    onlyAnthropicKey();
    const models = await DeskModels.create({ env: {} });
    const gemini = models.list().find((model) => model.provider === "google");

    expect(models.pick()).toBeUndefined(); // Pi chooses from settings, as the CLI does
    expect(models.pick({ provider: "anthropic", id: "claude-sonnet-4-5" })).toMatchObject({
      provider: "anthropic",
      id: "claude-sonnet-4-5",
    });
    expect(() => models.pick({ provider: "anthropic", id: "claude-nonexistent" })).toThrow(
      'Provider anthropic has no model "claude-nonexistent". Choose a model from the list',
    );
    expect(() => models.pick({ provider: "acme", id: "x" })).toThrow('Pi knows no provider "acme"');
    expect(() => models.pick({ provider: "google", id: gemini?.id ?? "" })).toThrow(
      /^No Gemini API key for Google\. Enter one in Pi Desk, set it in the environment/,
    );
  });

  it("keeps a key entered at run time in memory only", async () => {
    onlyAnthropicKey();
    const models = await DeskModels.create({ env: {} });
    const gemini = models.list().find((model) => model.provider === "google");

    await models.setApiKey("google", "  gemini-test-key \n");

    expect(models.pick({ provider: "google", id: gemini?.id ?? "" })).toMatchObject({ provider: "google" });
    expect(models.list().find((model) => model.provider === "google")).toMatchObject({
      hasKey: true,
      keySource: "runtime",
    });
    expect(readFileSync(join(agentDir, "auth.json"), "utf8")).not.toContain("gemini-test-key");
    await expect(models.setApiKey("acme", "k")).rejects.toThrow('Pi knows no provider "acme"');
    await expect(models.setApiKey("google", "   ")).rejects.toThrow("The API key for google is empty");
  });
});
