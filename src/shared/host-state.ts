/** The folder the person works in; every command runs here. */
export interface WorkspaceInfo {
  /** Absolute path of the folder. */
  path: string;
  /** The folder's own name, for titles and labels. */
  name: string;
}

/** Which shell hosts the core: the Electron app, or the loopback browser host. */
export type ShellKind = "electron" | "browser";

/** Everything the UI needs to draw itself from nothing: after a reload or a reconnect it starts here. */
export interface HostState {
  /** The open workspace, or null before one is chosen. */
  workspace: WorkspaceInfo | null;
  /** The shell the host runs in. */
  shell: ShellKind;
  /** Whether `chooseWorkspace` can ask the person for a folder (the browser host has no folder dialog). */
  canChooseWorkspace: boolean;
  /** Pi Desk's version, shown in the UI and in bug reports. */
  version: string;
}
