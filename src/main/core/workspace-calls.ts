import type { WorkspaceSession } from "../agent/workspace-session";
import type { SandboxCheck } from "../run-command";
import type { DeskHandlers } from "./desk-handlers";
import type { DeskWorkspace } from "./desk-workspace";
import { pastChats } from "./past-chats";

/** The calls on one open workspace's settings, history and past chats. */
type WorkspaceCall =
  | "listSessions"
  | "setSandbox"
  | "setAllowedHosts"
  | "addAllowedHosts"
  | "setBackgroundCap"
  | "setMcpServerEnabled"
  | "setScriptsEnabled"
  | "setResourceLimits"
  | "getHistory";

/** What those calls need of the host. */
export interface WorkspaceCallsHost {
  /** The open workspace of that id; refuses one that is not open, saying what to do. */
  workspaceOf(workspaceId: string): DeskWorkspace;
  /** Whether this machine can sandbox commands. */
  sandbox(): SandboxCheck;
  /** The workspace's open chats. */
  chatsOf(workspace: DeskWorkspace): WorkspaceSession[];
  /** A setting changed: each of the workspace's chats is told its limits now. */
  limitsChanged(workspace: DeskWorkspace): void;
}

/** Those calls: each finds its workspace and changes or reads what all its chats share. */
export function workspaceCalls(host: WorkspaceCallsHost): Pick<DeskHandlers, WorkspaceCall> {
  return {
    listSessions: async ({ workspaceId }) => pastChats(host.workspaceOf(workspaceId).info.path),
    setSandbox: async ({ workspaceId, enabled, network }) => {
      const workspace = host.workspaceOf(workspaceId);
      const sandbox = host.sandbox();
      if (enabled && !sandbox.available) {
        throw new Error(
          `The sandbox cannot run on this machine: ${sandbox.problem ?? "it is not available"}`,
        );
      }
      await workspace.parts.preferences.save({ sandbox: { enabled, network } });
      host.limitsChanged(workspace);
    },
    setAllowedHosts: async ({ workspaceId, hosts }) => {
      const workspace = host.workspaceOf(workspaceId);
      const outcome = await workspace.parts.preferences.setAllowedHosts(hosts);
      if (outcome.saved) host.limitsChanged(workspace);
      return outcome;
    },
    addAllowedHosts: async ({ workspaceId, hosts }) => {
      const workspace = host.workspaceOf(workspaceId);
      const outcome = await workspace.parts.preferences.addAllowedHosts(hosts);
      if (outcome.saved) host.limitsChanged(workspace);
      return outcome;
    },
    setBackgroundCap: async ({ workspaceId, seconds }) => {
      const workspace = host.workspaceOf(workspaceId);
      await workspace.parts.preferences.save({ backgroundCapSeconds: seconds });
      host.limitsChanged(workspace);
    },
    setMcpServerEnabled: async ({ workspaceId, name, enabled }) => {
      const workspace = host.workspaceOf(workspaceId);
      const { preferences } = workspace.parts;
      const off = (preferences.value.mcpServersOff ?? []).filter((other) => other !== name);
      await preferences.save({ mcpServersOff: enabled ? off : [...off, name] });
      // The open chats too, not only the next ones.
      await Promise.all(
        host.chatsOf(workspace).map((chat) => chat.mcpServers.setOffInWorkspace(name, !enabled)),
      );
    },
    setScriptsEnabled: async ({ workspaceId, enabled }) => {
      const workspace = host.workspaceOf(workspaceId);
      await workspace.parts.preferences.save({ scripts: enabled });
      // From each chat's next start: Pi sets up a session's tools once. Open chats' Settings say so.
      for (const chat of host.chatsOf(workspace)) chat.mcpServers.scriptsSettingChanged();
    },
    setResourceLimits: async ({ workspaceId, ...limits }) => {
      const workspace = host.workspaceOf(workspaceId);
      await workspace.setResourceLimits(limits);
      host.limitsChanged(workspace);
    },
    getHistory: async ({ workspaceId, query, limit }) =>
      host.workspaceOf(workspaceId).parts.audit.read({ query, limit }),
  };
}
