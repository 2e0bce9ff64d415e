import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assistantSaid, commandOf, pendingApproval, runCommand, startHost } from "./host-harness";

const SECRET = "sk-ant-pi-desk-test-secret-0123456789";
const TYPED_KEY = "sk-typed-into-the-ui-9876543210";

afterEach(() => {
  delete process.env.ANTHROPIC_API_KEY;
});

/** Every file under a folder, as text. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) out.push(readFileSync(path, "utf8"));
  }
  return out;
}

describe("the session host keeps secrets out of everything it writes", () => {
  it("no key reaches a command, the audit log, the session file or the full-output files", async () => {
    process.env.ANTHROPIC_API_KEY = SECRET;
    const { host, root } = await startHost([
      [runCommand("c1", "env; seq 1 5000")],
      [runCommand("c2", 'echo "$ANTHROPIC_API_KEY" | wc -c')],
      [{ type: "text", text: "Checked." }],
    ]);
    await host.handlers.setApiKey({ provider: "openai", key: TYPED_KEY });
    await host.handlers.prompt({ text: "look around" });
    for (const id of ["c1", "c2"]) {
      await host.handlers.decide({
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
