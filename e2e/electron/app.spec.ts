import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { _electron as electron, expect, test } from "@playwright/test";
import { DESK_METHODS } from "../../src/shared/desk-api";
import { findElectronBinary } from "../support/electron-binary";

const binary = findElectronBinary();

test("the desktop app opens a hardened window showing the workspace", async () => {
  test.skip(binary.path === null, binary.path === null ? `Electron: ${binary.reason}` : "");
  const workspace = mkdtempSync(join(tmpdir(), "pi-desk-electron-"));
  const app = await electron.launch({
    executablePath: binary.path ?? undefined,
    args: ["out/main/index.js", "--workspace", workspace],
  });
  const window = await app.firstWindow();
  await expect(window.getByTestId("workspace-name")).toHaveText(basename(workspace));
  const exposed = await window.evaluate(() => ({
    node: typeof (globalThis as { require?: unknown }).require,
    api: Object.keys((window as unknown as { piDesk: object }).piDesk).sort(),
  }));
  expect(exposed.node).toBe("undefined");
  expect(exposed.api).toEqual([...DESK_METHODS, "onHostEvent"].sort());
  await app.close();
});
