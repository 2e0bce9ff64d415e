import type { HostEvent } from "./host-events";
import type { HostState, WorkspaceInfo } from "./host-state";
import type { OpenWorkspaceParams } from "./request-schemas";

export type { OpenWorkspaceParams };

/** Stops a subscription. */
export type Unsubscribe = () => void;

/**
 * Every call the UI may make to the host. Both shells implement it: Electron through the preload bridge,
 * the browser host over its WebSocket. Each call carries at most one parameter object, validated by the
 * host against `requestSchemas` before anything happens.
 */
export interface DeskApi {
  /** The host's whole state now; the UI rebuilds itself from it after a reload or a reconnect. */
  getState(): Promise<HostState>;
  /** Ask the person for a folder and open it; null when they cancel. Only where `canChooseWorkspace`. */
  chooseWorkspace(): Promise<WorkspaceInfo | null>;
  /** Open the folder at an absolute path as the workspace. */
  openWorkspace(params: OpenWorkspaceParams): Promise<WorkspaceInfo>;
  /** Receive every event the host pushes, in order. */
  onHostEvent(listener: (event: HostEvent) => void): Unsubscribe;
}

/** The request-response calls of `DeskApi` (everything but the event subscription). */
export type DeskMethod = Exclude<keyof DeskApi, "onHostEvent">;

/** The parameter a call takes (undefined for calls without one). */
export type DeskParams<M extends DeskMethod> = Parameters<DeskApi[M]>[0];
/** What a call resolves to. */
export type DeskResult<M extends DeskMethod> = Awaited<ReturnType<DeskApi[M]>>;

/** Why the host refused or failed a call. */
export type DeskErrorCode = "unknown-method" | "invalid-params" | "unavailable" | "failed";

/** An error the host sends back instead of a result: a sentence for the person, and a code for the UI. */
export interface DeskError {
  /** What kind of failure it was. */
  code: DeskErrorCode;
  /** What happened and what to do, in words a person can act on. */
  message: string;
}

/** Electron IPC: every channel starts with this prefix; the main process refuses any other. */
export const IPC_PREFIX = "pi-desk:";
/** Electron IPC: the channel a call travels on. */
export const requestChannel = (method: DeskMethod): string => `${IPC_PREFIX}${method}`;
/** Electron IPC: the channel host events travel on. */
export const HOST_EVENT_CHANNEL = `${IPC_PREFIX}host-event`;
