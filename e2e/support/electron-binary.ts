import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Where an Electron binary is, or why there is none. */
export type ElectronBinary = { path: string } | { path: null; reason: string };

/**
 * Finds Electron's binary without triggering its download: since electron 42, requiring the package
 * downloads the binary from GitHub on first use, which fails (or hangs) on machines without that access.
 * ELECTRON_OVERRIDE_DIST_PATH points at a binary elsewhere, as the electron package itself allows.
 */
export function findElectronBinary(): ElectronBinary {
  const packageDir = dirname(createRequire(import.meta.url).resolve("electron/package.json"));
  const pathFile = join(packageDir, "path.txt");
  const name = existsSync(pathFile) ? readFileSync(pathFile, "utf8").trim() : "electron";
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override ? join(override, name) : join(packageDir, "dist", name);
  if (existsSync(candidate)) return { path: candidate };
  return {
    path: null,
    reason:
      `no Electron binary at ${candidate}. Electron's download is unreachable from this machine; ` +
      "set ELECTRON_OVERRIDE_DIST_PATH to a folder holding an Electron 45 binary to run these specs.",
  };
}
