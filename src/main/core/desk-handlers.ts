import type { DeskApi, DeskMethod } from "../../shared/desk-api";

/** The host's side of a call: what `DeskApi` does once the shell has checked who asks and with what. */
export type DeskHandlers = { [M in DeskMethod]: DeskApi[M] };
