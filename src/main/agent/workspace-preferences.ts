import type { AllowedHostsSaved } from "../../shared/network";
import { checkAllowedHosts } from "../run-command";
import { saveWorkspaceSettings, type WorkspaceSettings } from "../storage/workspace-settings";

/**
 * The workspace's own settings (its model, the sandbox, the hosts sandboxed commands may reach, the cap on
 * background commands): read once when the chat opens, then changed here and written one change at a time,
 * each write with every change so far. A change applies from the next command on.
 */
export class WorkspacePreferences {
  private write: Promise<void> = Promise.resolve();

  constructor(
    private current: WorkspaceSettings,
    private readonly path: string,
  ) {}

  /** The settings as they are now (the last change included, written or not). */
  get value(): WorkspaceSettings {
    return this.current;
  }

  /** The sandbox settings a command reads at its call: the workspace's choice and its allowed hosts. */
  sandbox(): { enabled: boolean; network: boolean; allowedHosts: string[] } {
    return { ...this.current.sandbox, allowedHosts: [...(this.current.allowedHosts ?? [])] };
  }

  /** Changes some settings and writes them; resolves once this change is on disk. */
  save(patch: Partial<WorkspaceSettings>): Promise<void> {
    this.current = { ...this.current, ...patch };
    const next = this.current;
    this.write = this.write.catch(() => {}).then(() => saveWorkspaceSettings(this.path, next));
    return this.write;
  }

  /**
   * Sets the hosts the workspace's sandboxed commands may reach. Refused as a whole, with each bad entry's
   * problem, when any entry is not valid (a bad entry is the person's input, not a failure of the call).
   */
  async setAllowedHosts(hosts: readonly string[]): Promise<AllowedHostsSaved> {
    const check = checkAllowedHosts(hosts);
    if (check.errors.length > 0) {
      const which = check.errors.length === 1 ? "that entry" : "those entries";
      const message = `${check.errors.join(" ")} Correct or remove ${which} and try again.`;
      return { saved: false, problems: check.problems, message };
    }
    // Duplicates dropped, each entry as the person wrote it (trimmed).
    await this.save({ allowedHosts: check.patterns.map((pattern) => pattern.text) });
    return { saved: true };
  }

  /** Adds hosts to the workspace's list (a card's "Allow for this workspace"). */
  addAllowedHosts(hosts: readonly string[]): Promise<AllowedHostsSaved> {
    return this.setAllowedHosts([...(this.current.allowedHosts ?? []), ...hosts]);
  }
}
