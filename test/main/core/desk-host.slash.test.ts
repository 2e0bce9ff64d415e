import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ProjectTrustStore, SessionManager } from "@earendil-works/pi-coding-agent";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assistantSaid, calls, startHost } from "./host-harness";

// This file's own agent dir (test/setup/pi-environment.ts makes one per file), as a person's ~/.pi/agent.
beforeAll(() => {
  const agentDir = process.env.PI_CODING_AGENT_DIR as string;
  mkdirSync(join(agentDir, "prompts"), { recursive: true });
  writeFileSync(
    join(agentDir, "prompts", "review.md"),
    `---\ndescription: Review staged git changes\nargument-hint: "[focus]"\n---\nReview the staged changes. Focus on \${1:-correctness}.\n`,
  );
  mkdirSync(join(agentDir, "skills", "pdf-tools"), { recursive: true });
  writeFileSync(
    join(agentDir, "skills", "pdf-tools", "SKILL.md"),
    "---\nname: pdf-tools\ndescription: Extract text and tables from PDF files\n---\nUse pdftotext.\n",
  );
});

describe("the host: the composer's / commands", () => {
  it("lists Pi's templates and skills from the agent dir, then Pi Desk's own", async () => {
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    const commands = await calls(host).listSlashCommands();
    expect(commands).toEqual([
      { name: "review", description: "Review staged git changes", argumentHint: "[focus]", kind: "template" },
      { name: "skill:pdf-tools", description: "Extract text and tables from PDF files", kind: "skill" },
      ...["compact", "new", "name", "model", "rewind", "fork", "thinking"].map((name) =>
        expect.objectContaining({ name, kind: "desk" }),
      ),
    ]);
  });

  it("sends a template expanded with its argument, as the pi command line does", async () => {
    const { host } = await startHost([[{ type: "text", text: "Reviewed." }]]);
    await calls(host).prompt({ text: "/review concurrency" });
    await assistantSaid(host, "Reviewed.");
    const asked = host.agentOf()?.messages.find((message) => message.role === "user");
    expect(JSON.stringify(asked?.content)).toContain("Review the staged changes. Focus on concurrency.");
    const shown = host.state().session?.transcript.find((item) => item.kind === "user");
    expect(shown?.kind === "user" && shown.text).toContain("Focus on concurrency.");
  });

  it("names the chat (/name): its title in the sidebar, a line in the conversation, and Pi's session file", async () => {
    const { host } = await startHost([[{ type: "text", text: "ok" }]]);
    await calls(host).prompt({ text: "Refactor the parser" });
    await assistantSaid(host, "ok");
    await calls(host).renameChat({ name: "  Parser   work " });
    expect(host.state().chats.map((chat) => chat.title)).toEqual(["Parser work"]);
    const said = host.state().session?.transcript.at(-1);
    expect(said).toMatchObject({ kind: "notice", say: { id: "chat-named", name: "Parser work" } });
    const file = host.state().session?.file as string;
    expect(SessionManager.open(file).getSessionName()).toBe("Parser work");
    await expect(calls(host).renameChat({ name: "   " })).rejects.toThrow("Give the chat a name");
  });
});

/** A project's own template (`.pi/prompts/ship.md`) and skill (`.agents/skills/house-style`). */
function writeProjectResources(workspace: string): string[] {
  mkdirSync(join(workspace, ".pi", "prompts"), { recursive: true });
  writeFileSync(
    join(workspace, ".pi", "prompts", "ship.md"),
    "---\ndescription: Prepare a release of this project\n---\nBump the version and write the changelog.\n",
  );
  mkdirSync(join(workspace, ".agents", "skills", "house-style"), { recursive: true });
  writeFileSync(
    join(workspace, ".agents", "skills", "house-style", "SKILL.md"),
    "---\nname: house-style\ndescription: This project's code style\n---\nTabs, never spaces.\n",
  );
  return [join(workspace, ".pi", "prompts"), join(workspace, ".agents", "skills")];
}

describe("the host: a project's own / commands", () => {
  const agentDir = () => process.env.PI_CODING_AGENT_DIR as string;
  afterEach(() => rmSync(join(agentDir(), "trust.json"), { force: true }));

  it("lists and expands a trusted project's templates and skills, as pi does", async () => {
    const { host } = await startHost([[{ type: "text", text: "Shipped." }]], {}, (folder) => {
      writeProjectResources(folder);
      new ProjectTrustStore(agentDir()).set(folder, true);
    });
    const names = (await calls(host).listSlashCommands()).map((command) => command.name);
    expect(names).toEqual(expect.arrayContaining(["ship", "skill:house-style", "review"]));
    expect(host.state().session?.projectSkipped).toBeUndefined();
    await calls(host).prompt({ text: "/ship" });
    await assistantSaid(host, "Shipped.");
    const asked = host.agentOf()?.messages.find((message) => message.role === "user");
    expect(JSON.stringify(asked?.content)).toContain("Bump the version and write the changelog.");
  });

  it("skips an untrusted project's templates and skills and says which folders", async () => {
    let folders: string[] = [];
    const { host } = await startHost([[{ type: "text", text: "ok" }]], {}, (folder) => {
      folders = writeProjectResources(folder);
    });
    const names = (await calls(host).listSlashCommands()).map((command) => command.name);
    expect(names).toContain("review");
    expect(names).not.toContain("ship");
    expect(names).not.toContain("skill:house-style");
    expect(host.state().session?.projectSkipped).toEqual(folders);
  });
});
