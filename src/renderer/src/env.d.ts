/// <reference types="vite/client" />
import type { DeskApi } from "../../shared/desk-api";

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser host. */
    piDesk?: DeskApi;
    /** Set by the Electron preload: where a file dropped from the OS lies (a browser never says). */
    piDeskFiles?: { pathOf(file: File): string };
  }
}
