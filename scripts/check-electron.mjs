// `npm start`'s pre-check: is Electron's binary there? Since electron 42 the binary is fetched from GitHub
// (at install, or on the first require), and where that download was unreachable electron-vite only says
// "Electron uninstall". This says what happened and the ways out, in one paragraph, without requiring the
// electron package (which would try the download again). The same lookup as e2e/support/electron-binary.ts.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const packageDir = dirname(createRequire(import.meta.url).resolve("electron/package.json"));
const pathFile = join(packageDir, "path.txt");
const name = existsSync(pathFile) ? readFileSync(pathFile, "utf8").trim() : "electron";
const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
const binary = override ? join(override, name) : join(packageDir, "dist", name);

if (!existsSync(binary)) {
  console.error(
    [
      `Pi Desk cannot start the desktop app: Electron's binary is not installed (there is nothing at ${binary}).`,
      "Electron downloads it from GitHub when it installs, and that download did not happen or could not",
      "reach GitHub. Reinstall where the download is reachable (rm -rf node_modules/electron && npm install),",
      "or set ELECTRON_OVERRIDE_DIST_PATH to a folder holding an Electron 45 binary; or use the browser host,",
      "which needs no Electron: npm run serve -- --workspace <folder>, then open the URL it prints.",
    ].join("\n"),
  );
  process.exit(1);
}
