import fc from "fast-check";
import type { TSchema } from "typebox";
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import type { DeskHandlers } from "../../../src/main/core/desk-host";
import { routeRequest } from "../../../src/main/core/request-router";
import { DESK_METHODS } from "../../../src/shared/desk-api";
import { requestSchemas } from "../../../src/shared/request-schemas";

/** Handlers that only record what reached them: the gate, not the host, is under test here. */
function recordingHandlers() {
  const calls: { method: string; params: unknown }[] = [];
  const handlers = Object.fromEntries(
    DESK_METHODS.map((method) => [method, async (params: unknown) => calls.push({ method, params })]),
  ) as unknown as DeskHandlers;
  return { handlers, calls };
}

/** Payloads a hostile page might send: anything JSON can carry, with prototype keys mixed in. */
const hostilePayload = fc.oneof(
  fc.anything({ withObjectString: true, withNullPrototype: true, maxDepth: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc
    .dictionary(
      fc.constantFrom("__proto__", "constructor", "prototype", "path", "text", "approvalId"),
      fc.jsonValue(),
    )
    .map((value) => JSON.parse(JSON.stringify(value))),
);

describe("routeRequest under fuzzing", () => {
  it("never throws, answers every payload, and lets only schema-valid ones reach the host", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...DESK_METHODS, "__proto__", "toString", "nope"),
        hostilePayload,
        async (method, params) => {
          const { handlers, calls } = recordingHandlers();
          const outcome = await routeRequest(handlers, method, params);
          if (outcome.ok) {
            expect(calls).toHaveLength(1);
            // Its own handler, with what its schema accepts (checked here by typebox's interpreter,
            // not the compiled check the router uses).
            expect(calls[0]?.method).toBe(method);
            expect(Value.Check(requestSchemas[method as keyof typeof requestSchemas], calls[0]?.params)).toBe(
              true,
            );
            // Whatever got through is a closed object or nothing: no unknown or prototype keys.
            const passed = calls[0]?.params;
            if (passed !== undefined) {
              expect([Object.prototype, null]).toContain(Object.getPrototypeOf(passed));
              expect(Object.hasOwn(passed as object, "__proto__")).toBe(false);
            }
          } else {
            expect(calls).toHaveLength(0);
            expect(["unknown-method", "invalid-params"]).toContain(outcome.error.code);
            // The error names the problem without echoing a huge payload back.
            expect(outcome.error.message.length).toBeLessThan(2000);
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
  });
});

/** Values of every JSON kind and a few edge ones, to put where a field's own kind belongs. */
const WRONG_VALUES: unknown[] = [null, 0, -1, 1.5, 1e308, "", "x", "x".repeat(20_000), true, [], {}, ["x"]];

/**
 * Near misses of a method's parameters: a made-up value of its schema with one thing wrong (a field
 * missing, of another kind or out of range, an unknown or prototype key added), and whole values of
 * other kinds. Some may still be valid (an optional field left out); the property filters those.
 */
function nearMisses(schema: TSchema): unknown[] {
  const base = example(schema);
  const misses: unknown[] = [undefined, null, 0, "", [], {}, [base]];
  if (base && typeof base === "object" && !Array.isArray(base)) {
    const fields = Object.keys((schema as { properties?: object }).properties ?? {});
    misses.push({ ...base, extra: 1 }, { ...base, ...JSON.parse('{"__proto__": {"polluted": 1}}') });
    for (const field of fields) {
      const { [field]: _dropped, ...rest } = base as Record<string, unknown>;
      misses.push(rest);
      for (const wrong of WRONG_VALUES) misses.push({ ...base, [field]: wrong });
    }
  }
  return misses;
}

/**
 * A value the schema accepts: typebox's made-up one, or, where it cannot make one (a string with a
 * pattern, as every id has), the required fields filled in the same way, with "id-1" for such strings.
 */
function example(schema: TSchema): unknown {
  try {
    const made = Value.Create(schema);
    if (Value.Check(schema, made)) return made;
  } catch {
    // A pattern without a default: filled in below.
  }
  const shape = schema as { type?: string; properties?: Record<string, TSchema>; required?: string[] };
  if (shape.type === "string") return "id-1";
  if (shape.type !== "object") return undefined;
  return Object.fromEntries(
    Object.entries(shape.properties ?? {})
      .filter(([field]) => shape.required?.includes(field))
      .map(([field, property]) => [field, example(property)]),
  );
}

// Per method: whatever reaches the router, the handler of that method never sees an object its schema
// refuses. (Removing the router's check, or checking against another method's schema, fails this.)
describe.each(DESK_METHODS)("routeRequest for %s", (method) => {
  const schema = requestSchemas[method];
  const invalid = fc
    .oneof(fc.constantFrom(...nearMisses(schema)), hostilePayload)
    .filter((params) => !Value.Check(schema, params));

  it("hands a valid parameter object to its own handler, once, as it came", async () => {
    const valid = example(schema);
    expect(Value.Check(schema, valid), `no valid example for ${method}`).toBe(true);
    const { handlers, calls } = recordingHandlers();
    expect(await routeRequest(handlers, method, valid)).toMatchObject({ ok: true });
    expect(calls).toEqual([{ method, params: valid }]);
  });

  it("never hands its handler a parameter object its schema refuses, and says which", async () => {
    await fc.assert(
      fc.asyncProperty(invalid, async (params) => {
        const { handlers, calls } = recordingHandlers();
        const outcome = await routeRequest(handlers, method, params);
        expect(calls).toEqual([]);
        expect(outcome).toMatchObject({ ok: false, error: { code: "invalid-params" } });
        if (!outcome.ok)
          expect(outcome.error.message).toMatch(new RegExp(`^Invalid parameters for ${method}: `));
      }),
      { numRuns: 120 },
    );
  });
});
