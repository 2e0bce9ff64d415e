import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { BACKGROUND_CAP_RANGE } from "../../shared/commands";
import { writeFileAtomic } from "./atomic-file";

/** What the person chose for one workspace, kept in its data folder. */
export interface WorkspaceSettings {
  /** The OS sandbox for this workspace's commands. */
  sandbox: { enabled: boolean; network: boolean };
  /** How long a background command may run here, in seconds; absent: the host's default. */
  backgroundCapSeconds?: number;
}

/** The settings file of a workspace's data folder. */
export function settingsFile(dir: string): string {
  return join(dir, "settings.json");
}

/**
 * Reads a workspace's settings; what is missing or unreadable takes the defaults (the sandbox on where
 * this machine has one, without network), so a damaged file never turns a protection off.
 */
export async function loadWorkspaceSettings(
  file: string,
  sandboxAvailable: boolean,
): Promise<WorkspaceSettings> {
  const fallback: WorkspaceSettings = { sandbox: { enabled: sandboxAvailable, network: false } };
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return fallback;
  try {
    const stored = JSON.parse(text) as Partial<WorkspaceSettings>;
    const sandbox = stored.sandbox;
    if (typeof sandbox?.enabled !== "boolean" || typeof sandbox.network !== "boolean") return fallback;
    const cap = stored.backgroundCapSeconds;
    return {
      sandbox: { enabled: sandbox.enabled, network: sandbox.network },
      ...(isBackgroundCap(cap) ? { backgroundCapSeconds: cap } : {}),
    };
  } catch {
    return fallback;
  }
}

/** Saves a workspace's settings (atomically, readable only by the person). */
export async function saveWorkspaceSettings(file: string, settings: WorkspaceSettings): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`);
}

/** A cap a person may have set: whole seconds within `BACKGROUND_CAP_RANGE`. */
function isBackgroundCap(value: unknown): value is number {
  return (
    Number.isInteger(value) &&
    (value as number) >= BACKGROUND_CAP_RANGE.minSeconds &&
    (value as number) <= BACKGROUND_CAP_RANGE.maxSeconds
  );
}
