/**
 * A project's own prompt templates and skills, found where the `pi` command line finds them: `.pi/prompts`,
 * `.pi/skills`, and `.agents/skills` in the folder and each folder above it up to the repository's root.
 * Loaded only where the person trusts the project in Pi (project-trust.ts), as `pi` does; otherwise they are
 * skipped and the composer says so. They are text the model reads, and whatever a skill tells it to run still
 * waits at the gate. The project's settings, extensions, packages and SYSTEM.md stay unread: those would run
 * code or change the host's rules outside the gate just by opening a folder.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { projectTrusted } from "./project-trust";

/** What a chat loads of its project, and what it left out. */
export interface ProjectResources {
  /** Folders of prompt templates to load (Pi's `additionalPromptTemplatePaths`). */
  prompts: string[];
  /** Folders of skills to load (Pi's `additionalSkillPaths`). */
  skills: string[];
  /** The project's folders of templates and skills left out because the project is not trusted. */
  skipped: string[];
}

/**
 * The chat's project resources. `folder` is where the chat works (a worktree's folder for a worktree chat),
 * `trustFolder` the workspace whose trust decides (a worktree belongs to the workspace it was made from).
 */
export function projectResources(agentDir: string, folder: string, trustFolder: string): ProjectResources {
  const prompts = existing([join(folder, ".pi", "prompts")]);
  const skills = existing([join(folder, ".pi", "skills"), ...agentsSkillFolders(folder)]);
  if (prompts.length + skills.length === 0) return { prompts, skills, skipped: [] };
  if (projectTrusted(agentDir, trustFolder)) return { prompts, skills, skipped: [] };
  return { prompts: [], skills: [], skipped: [...prompts, ...skills] };
}

/**
 * `.agents/skills` in the folder and each one above it, up to the repository's root (Pi's rule); the
 * person's own `~/.agents/skills` is theirs, loaded by Pi already, not the project's.
 */
function agentsSkillFolders(folder: string): string[] {
  const home = process.env.HOME ? resolve(process.env.HOME, ".agents", "skills") : undefined;
  const root = repositoryRoot(folder);
  const found: string[] = [];
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    const skills = join(dir, ".agents", "skills");
    if (skills !== home) found.push(skills);
    if (dir === root || dirname(dir) === dir) break;
  }
  return existing(found);
}

/** The nearest folder holding `.git` (a folder, or a worktree's file), or undefined outside a repository. */
function repositoryRoot(folder: string): string | undefined {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function existing(folders: string[]): string[] {
  return folders.filter((folder) => {
    try {
      return statSync(folder).isDirectory();
    } catch {
      return false;
    }
  });
}
