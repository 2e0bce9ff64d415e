import { describe, expect, it } from "vitest";
import { forgetTested, IgnoreStack, parseIgnore } from "../../../src/main/changes/ignore-rules";

describe("the ignore rules' memory", () => {
  it("lets the scan empty the ignore package's cache of every path, with the same decisions after", () => {
    const rules = parseIgnore("*.log\n");
    const stack = IgnoreStack.root(parseIgnore(["node_modules/"])).with("", rules);
    const paths = Array.from(
      { length: 1000 },
      (_, i) => `src/d${i % 10}/f${i}.${i % 3 === 0 ? "log" : "ts"}`,
    );
    const first = paths.map((path) => stack.ignores(path, false));
    // What the package keeps per path (ignore 7.0.8): the cache `forgetTested` empties.
    const cache = (rules as unknown as { _testCache: Record<string, unknown> })._testCache;
    expect(Object.keys(cache).length).toBeGreaterThanOrEqual(1000);
    stack.forgetPaths();
    expect(Object.keys((rules as unknown as { _testCache: object })._testCache)).toEqual([]);
    expect(paths.map((path) => stack.ignores(path, false))).toEqual(first);
    expect(first.filter(Boolean)).toHaveLength(334);
    // The method it calls is the package's own: a version without it would leave the cache growing.
    expect(() => forgetTested(rules)).not.toThrow();
    expect(typeof (rules as unknown as { _initCache?: unknown })._initCache).toBe("function");
  });
});
