import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DeskHandlers } from "../../../src/main/core/desk-host";
import { routeRequest } from "../../../src/main/core/request-router";
import { DESK_METHODS } from "../../../src/shared/desk-api";

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
