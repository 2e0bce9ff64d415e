import { homedir } from "node:os";
import { join } from "node:path";
import type { ShellKind } from "../../shared/host-state";
import type { CommandSettings } from "../agent/workspace-session";
import type { WorkspaceChangesOptions } from "./desk-workspace";
import type { WorkspaceFolder } from "./workspace";

/** Keeps provider API keys between runs; the desktop app's is backed by the OS keychain. */
export interface SecretStore {
  /** Every stored key, by provider. */
  load(): Promise<Record<string, string>>;
  /** Stores a provider's key. */
  save(provider: string, key: string): Promise<void>;
}

/** How a shell sets up the host core. */
export interface DeskHostOptions {
  /** Which shell this is. */
  shell: ShellKind;
  /** Pi Desk's version. */
  version: string;
  /** The workspace to open at start, if any (already resolved), with a new chat in it. */
  workspace?: WorkspaceFolder;
  /** More workspaces to open at start, each with a new chat (the browser host's repeated `--workspace`). */
  workspaces?: WorkspaceFolder[];
  /** Opens a page in the person's browser (an MCP server's sign-in page); absent where the shell cannot. */
  openExternal?: (url: string) => void;
  /** Asks the person for a folder; absent where the shell has no folder dialog. */
  pickFolder?: () => Promise<string | null>;
  /** Where rules, audit logs and full outputs are kept: `PI_DESK_DATA_DIR`, else `~/.pi-desk`. */
  dataRoot?: string;
  /** The limits on commands. */
  commands?: CommandSettings;
  /** Where API keys given in the UI are kept; absent: in memory only, never written in plain text. */
  secrets?: SecretStore;
  /** How what commands change is recorded: the records' disk budget, the engine's limits; `false`: not at all. */
  changes?: WorkspaceChangesOptions | false;
  /**
   * How a person reaches this host, written into the owner lock of the workspaces it opens, so a second
   * Pi Desk on that folder can say where it is open: "desktop app" (the default in Electron), or
   * "browser host on <URL without the token>" (see `setReach`; "browser host" until it listens).
   */
  reach?: string;
}

/** Where the host keeps its data: the option, else `PI_DESK_DATA_DIR`, else `~/.pi-desk`. */
export function dataRootOf(options: DeskHostOptions): string {
  return options.dataRoot ?? process.env.PI_DESK_DATA_DIR ?? join(homedir(), ".pi-desk");
}
