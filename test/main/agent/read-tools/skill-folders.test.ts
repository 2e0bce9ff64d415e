import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Skill } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { skillFolders } from "../../../../src/main/agent/read-tools/skill-folders";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const skill = (baseDir: string) => ({ name: "s", baseDir, filePath: join(baseDir, "SKILL.md") }) as Skill;

describe("the skills' folders the read tools and the sandbox may read", () => {
  it("are each skill's own folder, once each", () => {
    const root = mkdtempSync(join(tmpdir(), "pi-desk-skills-"));
    roots.push(root);
    const agentDir = join(root, "agent");
    const one = join(agentDir, "skills", "one");
    mkdirSync(one, { recursive: true });
    expect(skillFolders([skill(one), skill(one)], [agentDir])).toEqual([one]);
  });

  it("leave out a skill whose folder holds a hidden one (Pi's agent folder itself, or the home folder)", () => {
    const root = mkdtempSync(join(tmpdir(), "pi-desk-skills-"));
    roots.push(root);
    const agentDir = join(root, "agent");
    mkdirSync(agentDir);
    expect(skillFolders([skill(agentDir), skill(root)], [agentDir])).toEqual([]);
    expect(skillFolders([skill(homedir()), skill(dirname(homedir()))], [])).toEqual([]);
  });
});
