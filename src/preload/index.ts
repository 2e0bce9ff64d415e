import { contextBridge, type IpcRendererEvent, ipcRenderer, webUtils } from "electron";
import { DESK_METHODS, type DeskApi, HOST_EVENT_CHANNEL, requestChannel } from "../shared/desk-api";
import type { HostEvent } from "../shared/host-events";

// Exactly the DeskApi methods, one function per call on its own channel; never ipcRenderer itself and no
// generic on(channel), so a compromised page can reach nothing the contract does not name. No logic here.
const calls = Object.fromEntries(
  DESK_METHODS.map((method) => [
    method,
    (params?: unknown) => ipcRenderer.invoke(requestChannel(method), params),
  ]),
);

const api = {
  ...calls,
  onHostEvent: (listener: (event: HostEvent) => void) => {
    const forward = (_event: IpcRendererEvent, hostEvent: HostEvent) => listener(hostEvent);
    ipcRenderer.on(HOST_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(HOST_EVENT_CHANNEL, forward);
    };
  },
} as DeskApi;

contextBridge.exposeInMainWorld("piDesk", api);

// Where a file dropped on the composer lies, so it can be named as @path (Electron gives a dropped File no
// path since version 32; this is its one way). Reads nothing of the file.
contextBridge.exposeInMainWorld("piDeskFiles", { pathOf: (file: File) => webUtils.getPathForFile(file) });
