/**
 * Whether the person trusts a project in Pi, read the way the `pi` command line reads it without asking: a
 * decision saved in Pi's trust store (`trust.json`, for the folder or one above it), else Pi's
 * `defaultProjectTrust` setting when it is `"always"`. Pi Desk never asks or saves a decision itself: trusting
 * a project in Pi also lets `pi` load its extensions and install its packages, which is the person's call in
 * `pi`, not a side effect of opening a folder here.
 */
import { ProjectTrustStore, SettingsManager } from "@earendil-works/pi-coding-agent";

export function projectTrusted(agentDir: string, folder: string): boolean {
  try {
    const saved = new ProjectTrustStore(agentDir).get(folder);
    if (saved !== null) return saved;
    const settings = SettingsManager.create(folder, agentDir, { projectTrusted: false });
    return settings.getDefaultProjectTrust() === "always";
  } catch {
    // An unreadable trust store or settings file trusts nothing: the project's files are skipped, and said so.
    return false;
  }
}
