import { describe, expect, it } from "vitest";
import { applySgr, dropLines, parseAnsi } from "../../src/renderer/src/lib/ansi";

const ESC = "\x1b";

describe("parseAnsi", () => {
  it("keeps plain text as one unstyled span", () => {
    expect(parseAnsi("hello\nworld\n")).toEqual([{ text: "hello\nworld\n", style: {} }]);
  });

  it("turns SGR colour and weight codes into styled spans and resets on 0", () => {
    expect(parseAnsi(`${ESC}[1;31mERROR${ESC}[0m done ${ESC}[32mok${ESC}[m`)).toEqual([
      { text: "ERROR", style: { bold: true, fg: 1 } },
      { text: " done ", style: {} },
      { text: "ok", style: { fg: 2 } },
    ]);
  });

  it("reads bright colours, backgrounds, and turning single attributes off", () => {
    expect(parseAnsi(`${ESC}[91;44;4mx${ESC}[24;39my${ESC}[49mz`)).toEqual([
      { text: "x", style: { fg: 9, bg: 4, underline: true } },
      { text: "y", style: { bg: 4 } },
      { text: "z", style: {} },
    ]);
  });

  it("reads 256-colour and RGB codes as CSS colours", () => {
    const [a, b, c] = parseAnsi(`${ESC}[38;5;208ma${ESC}[48;2;10;20;300mb${ESC}[0;38;5;3mc`);
    expect(a?.style.fg).toBe("rgb(255, 135, 0)");
    expect(b?.style.bg).toBe("rgb(10, 20, 255)");
    expect(c?.style.fg).toBe(3);
  });

  it("drops other escape sequences: cursor moves, erase line, window titles, hyperlinks", () => {
    const text = `${ESC}[2K${ESC}[1Gstep${ESC}]0;title${ESC}\\ ${ESC}]8;;http://x${ESC}\\link${ESC}]8;;${ESC}\\ ${ESC}(Bend${ESC}[?25l`;
    expect(
      parseAnsi(text)
        .map((s) => s.text)
        .join(""),
    ).toBe("step link end");
  });

  it("drops stray control characters but keeps newlines and tabs", () => {
    expect(
      parseAnsi("a\x00b\x07c\td\n")
        .map((s) => s.text)
        .join(""),
    ).toBe("abc\td\n");
  });

  it("shows what a progress bar redrawn with carriage returns ends as, with its colour", () => {
    const spans = parseAnsi(`${ESC}[32m 10%\r 50%\r100%\nnext\r\n`);
    expect(spans.map((s) => s.text).join("")).toBe("100%\nnext\n");
    expect(spans[0]?.style.fg).toBe(2);
  });

  it("never produces markup: angle brackets stay text", () => {
    expect(parseAnsi("<img src=x onerror=alert(1)>")).toEqual([
      { text: "<img src=x onerror=alert(1)>", style: {} },
    ]);
  });

  it("ignores malformed extended colours without losing the rest", () => {
    expect(applySgr({}, "38;5")).toEqual({});
    expect(applySgr({}, "38;7;1")).toEqual({ bold: true });
    expect(applySgr({ bold: true }, "")).toEqual({});
  });
});

describe("dropLines", () => {
  it("leaves out the first lines and keeps the colour set before them on the lines after", () => {
    const spans = parseAnsi(`one\n${ESC}[31mtwo\nthree${ESC}[0m\nfour\n`);
    expect(dropLines(spans, 2)).toEqual([
      { text: "three", style: { fg: 1 } },
      { text: "\nfour\n", style: {} },
    ]);
    expect(dropLines(spans, 0)).toEqual(spans);
    expect(dropLines(spans, 4)).toEqual([]);
    expect(dropLines(spans, 9)).toEqual([]);
  });
});
