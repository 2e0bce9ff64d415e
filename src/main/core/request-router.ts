import { Compile } from "typebox/compile";
import type { DeskError, DeskMethod } from "../../shared/desk-api";
import { deskMethods, isDeskMethod, requestSchemas } from "../../shared/request-schemas";
import { errorMessage } from "../base/errors";
import type { DeskHandlers } from "./desk-host";

/** A call's outcome as it crosses back to the UI. */
export type RouteOutcome = { ok: true; result: unknown } | { ok: false; error: DeskError };

const validators = Object.fromEntries(
  deskMethods.map((method) => [method, Compile(requestSchemas[method])]),
) as { [M in DeskMethod]: ReturnType<typeof Compile> };

/**
 * The one gate every call passes in both shells: the method must be known and the parameters must match
 * its schema before the host does anything. Errors come back as values, never as thrown exceptions, so a
 * bad call cannot take a shell down.
 */
export async function routeRequest(
  handlers: DeskHandlers,
  method: unknown,
  params: unknown,
): Promise<RouteOutcome> {
  if (!isDeskMethod(method)) {
    const shown = typeof method === "string" ? `"${method.slice(0, 100)}"` : `a ${typeof method}`;
    return fail("unknown-method", `Unknown method ${shown}. Known methods: ${deskMethods.join(", ")}.`);
  }
  const validator = validators[method];
  if (!validator.Check(params)) {
    const problems = [...validator.Errors(params)]
      .slice(0, 3)
      .map((e) => `${e.instancePath || "the parameters"} ${e.message}`);
    return fail("invalid-params", `Invalid parameters for ${method}: ${problems.join("; ")}.`);
  }
  try {
    const handler = handlers[method] as (params: unknown) => Promise<unknown>;
    return { ok: true, result: await handler(params) };
  } catch (error) {
    return fail("failed", errorMessage(error));
  }
}

function fail(code: DeskError["code"], message: string): RouteOutcome {
  return { ok: false, error: { code, message } };
}
