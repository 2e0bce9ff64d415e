import type { DeskApi, DeskMethod, Unsubscribe } from "../../shared/desk-api";
import type { HostEvent } from "../../shared/host-events";
import type { HostState, ShellKind, WorkspaceInfo } from "../../shared/host-state";
import { resolveWorkspace } from "./workspace";

/** How a shell sets up the host core. */
export interface DeskHostOptions {
  /** Which shell this is. */
  shell: ShellKind;
  /** Pi Desk's version. */
  version: string;
  /** The workspace to open at start, if any (already resolved). */
  workspace?: WorkspaceInfo;
  /** Asks the person for a folder; absent where the shell has no folder dialog. */
  pickFolder?: () => Promise<string | null>;
}

/** The host's side of a call: what `DeskApi` does once the shell has checked who asks and with what. */
export type DeskHandlers = { [M in DeskMethod]: DeskApi[M] };

/**
 * The host core both shells share. It holds the state, does what the calls ask, and tells every
 * subscriber what changed. It imports nothing from Electron, so it runs and is tested under plain Node.
 */
export class DeskHost {
  private workspace: WorkspaceInfo | null;
  private readonly listeners = new Set<(event: HostEvent) => void>();

  constructor(private readonly options: DeskHostOptions) {
    this.workspace = options.workspace ?? null;
  }

  /** The state a newly connected UI starts from. */
  state(): HostState {
    return {
      workspace: this.workspace,
      shell: this.options.shell,
      canChooseWorkspace: this.options.pickFolder !== undefined,
      version: this.options.version,
    };
  }

  /** Receive every event from now on. */
  subscribe(listener: (event: HostEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The calls, bound to this host; the shells route validated requests here. */
  readonly handlers: DeskHandlers = {
    getState: async () => this.state(),
    chooseWorkspace: async () => {
      const pick = this.options.pickFolder;
      if (!pick) {
        throw new Error("This host has no folder dialog: start it with --workspace <folder> to choose one.");
      }
      const path = await pick();
      return path === null ? null : this.open(path);
    },
    openWorkspace: async ({ path }) => this.open(path),
  };

  /** Release everything the host holds. */
  async dispose(): Promise<void> {
    this.listeners.clear();
  }

  private async open(path: string): Promise<WorkspaceInfo> {
    const workspace = await resolveWorkspace(path);
    this.workspace = workspace;
    this.emit({ type: "workspace-changed", workspace });
    return workspace;
  }

  private emit(event: HostEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
