import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProjectTrustStore } from "@earendil-works/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectResources } from "../../../src/main/agent/project-resources";

let root: string;
let agentDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pi-desk-project-"));
  agentDir = join(root, "agent");
  mkdirSync(agentDir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Makes the folders and returns their paths. */
const folders = (...paths: string[]) =>
  paths.map((path) => {
    mkdirSync(join(root, path), { recursive: true });
    return join(root, path);
  });

describe("a project's own templates and skills", () => {
  it("are found as pi finds them: .pi/prompts, .pi/skills, and .agents/skills up to the repository's root, not above", () => {
    folders("outer/.agents/skills", "outer/repo/.git");
    const [prompts, skills, repoAgents, subAgents] = folders(
      "outer/repo/sub/.pi/prompts",
      "outer/repo/sub/.pi/skills",
      "outer/repo/.agents/skills",
      "outer/repo/sub/.agents/skills",
    );
    const folder = join(root, "outer/repo/sub");
    new ProjectTrustStore(agentDir).set(folder, true);
    expect(projectResources(agentDir, folder, folder)).toEqual({
      prompts: [prompts],
      skills: [skills, subAgents, repoAgents],
      skipped: [],
    });
  });

  it("are skipped, and named, where the project is not trusted (no decision, or declined)", () => {
    const [prompts] = folders("repo/.pi/prompts");
    const folder = join(root, "repo");
    expect(projectResources(agentDir, folder, folder)).toEqual({
      prompts: [],
      skills: [],
      skipped: [prompts],
    });
    new ProjectTrustStore(agentDir).set(folder, false);
    expect(projectResources(agentDir, folder, folder).skipped).toEqual([prompts]);
  });

  it("follow the workspace's trust in a worktree chat, and Pi's defaultProjectTrust 'always'", () => {
    const [worktreePrompts] = folders("data/worktrees/chat-1/.pi/prompts");
    const workspace = join(root, "repo");
    const worktree = join(root, "data/worktrees/chat-1");
    mkdirSync(workspace);
    new ProjectTrustStore(agentDir).set(workspace, true);
    expect(projectResources(agentDir, worktree, workspace).prompts).toEqual([worktreePrompts]);
    expect(projectResources(agentDir, worktree, worktree).prompts).toEqual([]);
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProjectTrust: "always" }));
    expect(projectResources(agentDir, worktree, worktree).prompts).toEqual([worktreePrompts]);
  });
});
