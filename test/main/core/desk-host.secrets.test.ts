import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isInside } from "../../../src/main/base/paths";
import { assistantSaid, calls, commandOf, pendingApproval, runCommand, startHost } from "./host-harness";
import { filesUnder, startRealProviderHost } from "./real-provider-host";

const SECRET = "sk-ant-pi-desk-test-secret-0123456789";
const TYPED_KEY = "sk-typed-into-the-ui-9876543210";

afterEach(() => {
  delete process.env.ANTHROPIC_API_KEY;
});

describe("the session host keeps secrets out of everything it writes", () => {
  it("no key reaches a command, the audit log, the session file or the full-output files", async () => {
    process.env.ANTHROPIC_API_KEY = SECRET;
    const { host, root } = await startHost([
      [runCommand("c1", "env; seq 1 5000")],
      [runCommand("c2", 'echo "$ANTHROPIC_API_KEY" | wc -c')],
      [{ type: "text", text: "Checked." }],
    ]);
    await calls(host).setApiKey({ provider: "openai", key: TYPED_KEY });
    await calls(host).prompt({ text: "look around" });
    for (const id of ["c1", "c2"]) {
      await calls(host).decide({
        approvalId: await pendingApproval(host, id),
        decision: { kind: "approve" },
      });
    }
    await assistantSaid(host, "Checked.");
    // An empty variable: echo prints just the newline.
    expect(commandOf(host, "c2")?.output.trim()).toBe("1");
    expect(commandOf(host, "c1")?.details?.fullOutputPath).toBeTruthy();

    const sessionFile = host.state().session?.file as string;
    const written = [
      ...filesUnder(root),
      readFileSync(sessionFile, "utf8"),
      JSON.stringify(host.state()),
    ].join("\n");
    expect(written).toContain("seq 1 5000");
    expect(written).not.toContain(SECRET);
    expect(written).not.toContain(TYPED_KEY);
  });
});

// The scripted model's runtime keeps keys in a store of its own in memory and writes no agent folder, so
// the test above cannot see where a real run puts things. This one takes Pi's real path: its agent folder
// (auth.json, models.json, sessions/), a provider from models.json, a model server on loopback.
describe("the session host on Pi's real provider path keeps secrets out of everything it writes", () => {
  it("uses the typed key for the provider, and writes it nowhere: not auth.json, sessions, audit, outputs", async () => {
    process.env.ANTHROPIC_API_KEY = SECRET;
    const { host, server, agentDir, root } = await startRealProviderHost((_request, index) =>
      index === 0
        ? { toolCall: { id: "c1", name: "run_command", arguments: { command: "seq 1 5000; env" } } }
        : { text: "Checked." },
    );
    // models.json names no key the environment has: the provider works only with the typed one.
    expect(host.state().models.options.find((model) => model.provider === "local")?.hasKey).toBe(false);
    await calls(host).setApiKey({ provider: "local", key: TYPED_KEY });
    // Pi chose a model whose key it had at the start (Anthropic's, from the environment): pick the local one.
    await calls(host).setModel({ provider: "local", id: "m1" });
    await calls(host).prompt({ text: "look around" });
    await calls(host).decide({
      approvalId: await pendingApproval(host, "c1"),
      decision: { kind: "approve" },
    });
    await assistantSaid(host, "Checked.");

    // The key did its job: every request to the provider carried it.
    expect(server.requests.map((request) => request.authorization)).toEqual([
      `Bearer ${TYPED_KEY}`,
      `Bearer ${TYPED_KEY}`,
    ]);
    expect(commandOf(host, "c1")?.output).toContain("PATH=");
    expect(commandOf(host, "c1")?.output).not.toContain(SECRET);
    expect(isInside(root, commandOf(host, "c1")?.details?.fullOutputPath ?? "/")).toBe(true);
    // What was written is where this test looks: Pi's session file in its agent folder, auth.json beside it.
    const sessionFile = host.state().session?.file as string;
    expect(isInside(agentDir, sessionFile)).toBe(true);
    expect(statSync(join(agentDir, "auth.json")).isFile()).toBe(true);
    const written = [...filesUnder(root), JSON.stringify(host.state())].join("\n");
    expect(written).toContain("seq 1 5000; env");
    expect(written).not.toContain(TYPED_KEY);
    expect(written).not.toContain(SECRET);
  });
});
