import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calls, startHost } from "./host-harness";

describe("the host: the composer's @ finder", () => {
  it("searches the chat's folder, and refuses a chat that is not open", async () => {
    const { host, workspace } = await startHost([[{ type: "text", text: "ok" }]]);
    mkdirSync(join(workspace, "src", "deep"), { recursive: true });
    writeFileSync(join(workspace, "src", "deep", "parser.ts"), "export {};\n");
    const found = await calls(host).findFiles({ query: "pars", fresh: true });
    expect(found.paths[0]).toBe("src/deep/parser.ts");
    await expect(calls(host, "no-such-chat").findFiles({ query: "x" })).rejects.toThrow();
  });
});
