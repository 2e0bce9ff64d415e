import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { BrowserWindow, Rectangle } from "electron";

/** Where the window was when the person last left it: its normal (unmaximised) bounds, and whether maximised. */
export interface SavedBounds extends Rectangle {
  /** Whether it was maximised. */
  maximized: boolean;
}

/** Where the window opens: a position only when it fits a display that exists now, else centred by the OS. */
export interface OpeningBounds {
  /** Left edge, absent to let the OS centre it. */
  x?: number;
  /** Top edge, absent to let the OS centre it. */
  y?: number;
  /** Width. */
  width: number;
  /** Height. */
  height: number;
  /** Whether to maximise it once shown. */
  maximized: boolean;
}

/** The size a window opens at the first time, and its smallest. */
export const WINDOW_SIZE = { width: 1200, height: 800, minWidth: 720, minHeight: 480 } as const;

/** How much of the window must lie on a display for it to come back there (else it is centred on the primary). */
const VISIBLE = { width: 100, height: 40 } as const;

/**
 * Where to open the window from what was saved and the displays' work areas now: on the display that shows
 * most of it, moved and shrunk to fit inside that display's work area (a title bar off the top could not be
 * dragged back); centred on the primary display (`workAreas[0]`) at the saved size (shrunk to fit) when no
 * display shows a good part of it any more (one was unplugged, or a laptop is away from its desk).
 */
export function openingBounds(
  saved: SavedBounds | undefined,
  workAreas: readonly Rectangle[],
): OpeningBounds {
  if (!saved) return { width: WINDOW_SIZE.width, height: WINDOW_SIZE.height, maximized: false };
  let area: Rectangle | undefined;
  let most = 0;
  for (const candidate of workAreas) {
    const overlap = intersection(saved, candidate);
    const size = overlap.width * overlap.height;
    if (overlap.width >= VISIBLE.width && overlap.height >= VISIBLE.height && size > most) {
      area = candidate;
      most = size;
    }
  }
  const fitTo = area ?? workAreas[0];
  const width = fitTo ? clamp(saved.width, WINDOW_SIZE.minWidth, fitTo.width) : saved.width;
  const height = fitTo ? clamp(saved.height, WINDOW_SIZE.minHeight, fitTo.height) : saved.height;
  if (!area) return { width, height, maximized: saved.maximized };
  return {
    x: clamp(saved.x, area.x, area.x + area.width - width),
    y: clamp(saved.y, area.y, area.y + area.height - height),
    width,
    height,
    maximized: saved.maximized,
  };
}

/** Reads the saved bounds; absent or unreadable (a damaged file) is no saved bounds, and the default size. */
export function readSavedBounds(file: string): SavedBounds | undefined {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Partial<SavedBounds>;
    const numbers = [value.x, value.y, value.width, value.height];
    if (
      numbers.every((n) => typeof n === "number" && Number.isFinite(n)) &&
      typeof value.maximized === "boolean"
    ) {
      return value as SavedBounds;
    }
  } catch {
    // No file yet, or not JSON: the window opens at its default size.
  }
  return undefined;
}

/**
 * Writes the window's bounds down whenever it is closed or hidden (and at quit, which closes it), synchronously:
 * the app may exit right after. The normal bounds, so a maximised window comes back to its size when
 * unmaximised.
 */
export function rememberBounds(
  window: Pick<BrowserWindow, "on" | "getNormalBounds" | "isMaximized" | "isDestroyed">,
  file: string,
): void {
  const save = () => {
    if (window.isDestroyed()) return;
    const bounds: SavedBounds = { ...window.getNormalBounds(), maximized: window.isMaximized() };
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(bounds), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      // Only the next start's window position is lost; say so where a developer looks.
      console.error(`Pi Desk could not remember the window's position in ${file}: ${String(error)}`);
    }
  };
  window.on("close", save);
  window.on("hide", save);
}

function intersection(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, Math.max(low, high)));
}
