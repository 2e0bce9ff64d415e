import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openingBounds, readSavedBounds, rememberBounds } from "../../../src/main/electron/window-bounds";
import { FakeWindow } from "./electron-stand-ins";

// The window where the person left it: what is written at close, read at the next start, and fitted to the
// displays that exist then (stand-ins for the window and the screen's work areas; a real file).

const laptop = { x: 0, y: 25, width: 1440, height: 875 };
const monitor = { x: 1440, y: 0, width: 2560, height: 1415 };

describe("the window's remembered bounds", () => {
  it("are written at close or hide, normal bounds and maximised, and read back at the next start", () => {
    const file = join(mkdtempSync(join(tmpdir(), "pi-desk-bounds-")), "window-bounds.json");
    const window = Object.assign(new FakeWindow(), {
      getNormalBounds: () => ({ x: 1600, y: 100, width: 1300, height: 900 }),
      isMaximized: () => true,
    });
    rememberBounds(window as never, file);
    window.close();
    expect(readSavedBounds(file)).toEqual({ x: 1600, y: 100, width: 1300, height: 900, maximized: true });
    expect(JSON.parse(readFileSync(file, "utf8")).maximized).toBe(true);
  });

  it("are the default size the first time, or when the file is damaged", () => {
    const file = join(mkdtempSync(join(tmpdir(), "pi-desk-bounds-")), "window-bounds.json");
    expect(readSavedBounds(file)).toBeUndefined();
    writeFileSync(file, '{"x": "left"');
    expect(readSavedBounds(file)).toBeUndefined();
    expect(openingBounds(undefined, [laptop])).toEqual({ width: 1200, height: 800, maximized: false });
  });

  it("keep their place on a display that still exists", () => {
    const saved = { x: 1600, y: 100, width: 1300, height: 900, maximized: false };
    expect(openingBounds(saved, [laptop, monitor])).toEqual(saved);
  });

  it("are moved and shrunk to fit the display they are mostly on", () => {
    // Hanging off the monitor's right edge and taller than the laptop.
    expect(
      openingBounds({ x: 3800, y: -50, width: 1000, height: 2000, maximized: false }, [laptop, monitor]),
    ).toEqual({ x: 3000, y: 0, width: 1000, height: 1415, maximized: false });
  });

  it("are centred on the primary display, at a size that fits it, once their display is gone", () => {
    const onTheMonitor = { x: 1600, y: 100, width: 2400, height: 1300, maximized: true };
    expect(openingBounds(onTheMonitor, [laptop])).toEqual({ width: 1440, height: 875, maximized: true });
  });
});
