import { type Static, Type } from "typebox";
import type { DeskMethod } from "./desk-api";

// The schemas every payload is checked against where it crosses into the host. They live apart from the
// contract's types so the renderer, which only needs the types, does not bundle the schema library.

/** Parameters of `DeskApi.openWorkspace`. */
export const OpenWorkspaceParams = Type.Object(
  {
    /** Absolute path of an existing folder. */
    path: Type.String({ minLength: 1, maxLength: 4096 }),
  },
  { additionalProperties: false },
);
/** Parameters of `DeskApi.openWorkspace`. */
export type OpenWorkspaceParams = Static<typeof OpenWorkspaceParams>;

/** A call without parameters: nothing may be sent. */
const NoParams = Type.Undefined();

/** The parameter schema of every call; a method missing here cannot be called. */
export const requestSchemas = {
  getState: NoParams,
  chooseWorkspace: NoParams,
  openWorkspace: OpenWorkspaceParams,
} as const satisfies Record<DeskMethod, unknown>;

/** The method names, for lookups that must not reach `Object.prototype`. */
export const deskMethods = Object.keys(requestSchemas) as DeskMethod[];

/** Is this string one of the calls? (An own-key check, so `__proto__` or `toString` never match.) */
export function isDeskMethod(name: unknown): name is DeskMethod {
  return typeof name === "string" && Object.hasOwn(requestSchemas, name);
}

/** A call from the browser host's page: `id` pairs it with its reply. */
export const ClientRequest = Type.Object(
  {
    /** Chosen by the client; echoed in the reply. */
    id: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    /** A `DeskMethod`. */
    method: Type.String({ maxLength: 100 }),
    /** The call's parameter object, absent for calls without one. */
    params: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
/** A call from the browser host's page. */
export type ClientRequest = Static<typeof ClientRequest>;
