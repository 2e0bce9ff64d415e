import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-file";

/** What the person chose for Pi Desk as a whole, whatever the workspace; kept in the data folder. */
export interface Preferences {
  /** Notify (OS notification) when a command starts waiting while the window is not in front. */
  notifications: boolean;
}

/** The preferences file of the data folder. */
export function preferencesFile(dataRoot: string): string {
  return join(dataRoot, "preferences.json");
}

/** Reads the preferences; what is missing or unreadable takes the default (notifications on). */
export async function loadPreferences(file: string): Promise<Preferences> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  try {
    const stored = text === undefined ? undefined : (JSON.parse(text) as Partial<Preferences> | null);
    return { notifications: typeof stored?.notifications === "boolean" ? stored.notifications : true };
  } catch {
    return { notifications: true };
  }
}

/** Saves the preferences (atomically, readable only by the person). */
export async function savePreferences(file: string, preferences: Preferences): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(preferences, null, 2)}\n`);
}
