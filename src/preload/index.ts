import { contextBridge, type IpcRendererEvent, ipcRenderer } from "electron";
import { type DeskApi, HOST_EVENT_CHANNEL, requestChannel } from "../shared/desk-api";
import type { HostEvent } from "../shared/host-events";

// Exactly the DeskApi methods, one per call; never ipcRenderer itself and no generic on(channel), so a
// compromised page can reach nothing the contract does not name. No logic lives here.
const api: DeskApi = {
  getState: () => ipcRenderer.invoke(requestChannel("getState")),
  chooseWorkspace: () => ipcRenderer.invoke(requestChannel("chooseWorkspace")),
  openWorkspace: (params) => ipcRenderer.invoke(requestChannel("openWorkspace"), params),
  onHostEvent: (listener) => {
    const forward = (_event: IpcRendererEvent, hostEvent: HostEvent) => listener(hostEvent);
    ipcRenderer.on(HOST_EVENT_CHANNEL, forward);
    return () => ipcRenderer.removeListener(HOST_EVENT_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld("piDesk", api);
