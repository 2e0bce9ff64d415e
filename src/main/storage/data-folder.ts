import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The folder that holds one workspace's rules, audit log and saved outputs:
 * `<dataRoot>/workspaces/<first 16 hex of sha256(path)>`, created 0700. A hash rather than the path
 * itself keeps names short and free of separators; `workspace.json` inside says which folder it is for,
 * for a person browsing the data folder.
 */
export function workspaceDataDir(dataRoot: string, workspacePath: string): string {
  const path = resolve(workspacePath);
  const dir = join(dataRoot, "workspaces", createHash("sha256").update(path).digest("hex").slice(0, 16));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const label = join(dir, "workspace.json");
  const wanted = `${JSON.stringify({ path }, null, 2)}\n`;
  if (readIfPresent(label) !== wanted) writeFileSync(label, wanted, { mode: 0o600 });
  return dir;
}

/** The workspace's "always allow / always deny" rules, in a workspace data folder. */
export function rulesFile(dir: string): string {
  return join(dir, "rules.json");
}

/** The workspace's append-only audit log (JSON lines), in a workspace data folder. */
export function auditFile(dir: string): string {
  return join(dir, "audit.jsonl");
}

/** The change engine's folder (its shadow repository and records), in a workspace data folder. */
export function changesDir(dir: string): string {
  return join(dir, "changes");
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
