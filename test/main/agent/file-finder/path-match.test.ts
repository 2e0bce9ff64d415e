import { describe, expect, it } from "vitest";
import { matchPaths, pathList } from "../../../../src/main/agent/file-finder/path-match";

/** The best paths for `query` among `paths`. */
function best(paths: string[], query: string, limit = 10): string[] {
  const list = pathList(paths);
  return matchPaths(list, query, limit).best.map((index) => list.paths[index] as string);
}

describe("matching the @ finder's query", () => {
  it("ranks a file named as typed, then names starting with it, holding it, paths holding it, then scattered", () => {
    const paths = [
      "docs/chat/notes.md",
      "src/old-chat-view.tsx",
      "src/chatview.tsx",
      "lib/c/h/a/t/view.ts",
      "src/ChatView.tsx",
      "chat/",
      "test/c-h-a-t.ts",
    ];
    expect(best(paths, "chat")).toEqual([
      "chat/",
      "src/ChatView.tsx",
      "src/chatview.tsx",
      "src/old-chat-view.tsx",
      "docs/chat/notes.md",
      "test/c-h-a-t.ts",
      "lib/c/h/a/t/view.ts",
    ]);
  });

  it("ignores case, needs every character in order, and reads a query with a slash against the whole path", () => {
    const paths = ["src/components/Button.tsx", "src/comp.ts", "button.css", "tests/src-button.ts"];
    expect(best(paths, "BUTTON")).toEqual(["button.css", "src/components/Button.tsx", "tests/src-button.ts"]);
    expect(best(paths, "nottub")).toEqual([]);
    expect(best(paths, "src/but")).toEqual(["src/components/Button.tsx"]);
  });

  it("keeps the best `limit`, shorter paths first among equals", () => {
    const paths = Array.from({ length: 100 }, (_, i) => `${"d/".repeat(i % 7)}f${i}.txt`);
    const found = best(paths, "f", 5);
    expect(found).toHaveLength(5);
    expect(found).toEqual(["f0.txt", "f7.txt", "f14.txt", "f21.txt", "f28.txt"]);
  });

  it("narrowing from the last query finds what a search of every path finds, key after key", () => {
    const names = ["alpha", "beta", "gamma", "delta", "main", "index", "view", "chat", "tray", "card"];
    const paths: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const pick = (k: number) => names[(i * k + 3) % names.length];
      paths.push(`${pick(7)}/${pick(3)}-${i % 13}/${pick(11)}${i}.${i % 2 ? "ts" : "md"}`);
    }
    const list = pathList(paths);
    for (const typed of ["chat", "tray/card1", "vie2.ts", "a/b"]) {
      let previous: ReturnType<typeof matchPaths>["narrowed"] | undefined;
      for (let n = 1; n <= typed.length; n++) {
        const query = typed.slice(0, n);
        const narrowed = matchPaths(list, query, 20, previous);
        const whole = matchPaths(list, query, 20);
        expect(narrowed.best, query).toEqual(whole.best);
        expect(Array.from(narrowed.narrowed.matches), query).toEqual(Array.from(whole.narrowed.matches));
        previous = narrowed.narrowed;
      }
    }
  });
});
