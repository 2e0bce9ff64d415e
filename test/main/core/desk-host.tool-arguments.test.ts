import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assistantSaid, calls, startHost } from "./host-harness";

describe("the session host: model-provided arguments outside the schema", () => {
  it.each([
    ["an object as the command", { command: { rm: "-rf" } }],
    ["no command", { timeout: 5 }],
    ["a string timeout", { command: "touch ran", timeout: "forever" }],
    ["a negative timeout", { command: "touch ran", timeout: -1 }],
  ])("runs nothing for %s, and tells the model", async (_label, args) => {
    const { host, workspace } = await startHost([
      [{ type: "toolCall", id: "bad", name: "run_command", arguments: args }],
      [{ type: "text", text: "Understood." }],
    ]);
    await calls(host).prompt({ text: "go" });
    await assistantSaid(host, "Understood.");
    expect(existsSync(join(workspace, "ran"))).toBe(false);
    const command = host.state().session?.commands.bad;
    expect(["refused", "cancelled", "failed"]).toContain(command?.phase);
    expect(command?.approvalId).toBeUndefined();
    expect(command?.output).not.toBe("");
  });
});
