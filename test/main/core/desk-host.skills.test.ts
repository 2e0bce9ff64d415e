import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getDocsPath } from "@earendil-works/pi-coding-agent";
import { beforeAll, describe, expect, it } from "vitest";
import type { DeskHost } from "../../../src/main/core/desk-host";
import {
  assistantSaid,
  calls,
  commandOf,
  pendingApproval,
  runCommand,
  sandboxOnHere,
  startHost,
} from "./host-harness";

const SKILL_TEXT = "house-rules-skill-body-5d1e";
const AGENT_SECRET = "agent-folder-secret-0b7c";

// This file's own agent dir (test/setup/pi-environment.ts makes one per file), hidden by the host as a person's ~/.pi/agent.
const agentDir = () => process.env.PI_CODING_AGENT_DIR as string;
const skillFile = () => join(agentDir(), "skills", "house-rules", "SKILL.md");

beforeAll(() => {
  mkdirSync(join(agentDir(), "skills", "house-rules"), { recursive: true });
  writeFileSync(
    skillFile(),
    `---\nname: house-rules\ndescription: How this team writes code\n---\n${SKILL_TEXT}\n`,
  );
  writeFileSync(join(agentDir(), "auth.json"), `{"anthropic":{"key":"${AGENT_SECRET}"}}\n`);
});

const read = (id: string, path: string) => ({
  type: "toolCall" as const,
  id,
  name: "read",
  arguments: { path },
});

/** What the model was told, as Pi stored the conversation. */
const sessionText = (host: DeskHost) => readFileSync(host.state().session?.file as string, "utf8");

describe("the host: the person's skills, which Pi tells the model to read", () => {
  it("lets the read tool open a loaded skill's files in Pi's agent folder, and nothing else there", async () => {
    const { host } = await startHost([
      [read("r1", skillFile()), read("r2", join(agentDir(), "auth.json"))],
      [{ type: "text", text: "Read." }],
    ]);
    await calls(host).prompt({ text: "follow the house rules" });
    await assistantSaid(host, "Read.");
    const told = sessionText(host);
    expect(told).toContain(SKILL_TEXT);
    expect(told).not.toContain(AGENT_SECRET);
    expect(told).toContain("read works inside the workspace");
  });

  it("lets the read tool open Pi's own docs, which Pi's system prompt points the model at", async () => {
    const { host } = await startHost([
      [read("r1", join(getDocsPath(), "sdk.md"))],
      [{ type: "text", text: "Read." }],
    ]);
    await calls(host).prompt({ text: "how does the Pi SDK work?" });
    await assistantSaid(host, "Read.");
    expect(sessionText(host)).toContain("createAgentSession");
  });

  it.runIf(sandboxOnHere)(
    "shows a sandboxed command the skill's folder, read-only, and still hides the rest",
    async () => {
      const skillDir = join(agentDir(), "skills", "house-rules");
      const { host } = await startHost([
        [
          runCommand(
            "c1",
            `cat ${skillDir}/SKILL.md; cat ${agentDir()}/auth.json; touch ${skillDir}/new.txt && echo wrote`,
          ),
        ],
        [{ type: "text", text: "Ran." }],
      ]);
      await calls(host).setSandbox({ enabled: true, network: false });
      await calls(host).prompt({ text: "run the skill" });
      await calls(host).decide({
        approvalId: await pendingApproval(host, "c1"),
        decision: { kind: "approve" },
      });
      await assistantSaid(host, "Ran.");
      const output = commandOf(host, "c1")?.output ?? "";
      expect(output).toContain(SKILL_TEXT);
      expect(output).not.toContain(AGENT_SECRET);
      expect(output).not.toContain("wrote");
    },
  );
});
