import {
  card,
  expect,
  expectPending,
  openDesk,
  runCommand,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** Holds 128 MiB: within the default limit, past 64 MiB. */
const HOG = "python3 -c \"b = b'x' * (128 * 1024 * 1024); print('held')\"";

test("a memory limit changed in Settings holds from the next command, and each card says its layer", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  const desk = await scriptedDesk([
    [runCommand("hog-1", HOG)],
    [say("First done.")],
    [runCommand("hog-2", HOG)],
    [say("Second done.")],
  ]);
  await openDesk(page, desk);

  await send(page, "Hold 128 MiB");
  await (await expectPending(page, "hog-1")).getByTestId("tray-approve-button").click();
  const first = card(page, "hog-1");
  await expect(first).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  await expect(page.getByTestId("assistant-message").last()).toContainText("First done.");

  await page.getByTestId("nav-settings").click();
  const section = page.getByTestId("resource-limits");
  const layer = await section.getByTestId("limits-layer").getAttribute("data-layer");
  test.skip(
    layer !== "cgroup-v1" && layer !== "cgroup-v2",
    `no cgroup here (${layer}): nothing kills the hog`,
  );
  await section.getByTestId("limits-memory").fill("64");
  await section.getByTestId("limits-save").click();
  await expect(section.getByTestId("limits-saved")).toBeVisible();
  await shot(page, testInfo, "memory and processes per command in Settings");

  await page.getByTestId("nav-chat").click();
  await expect(first.getByTestId("command-limits-layer")).toHaveAttribute("data-layer", layer as string);
  await send(page, "Again");
  await (await expectPending(page, "hog-2")).getByTestId("tray-approve-button").click();
  const second = card(page, "hog-2");
  await expect(second).toHaveAttribute("data-status", "limit-reached", { timeout: 20_000 });
  await expect(second.getByTestId("command-limit")).toContainText("it used more than 64 MiB of memory");
  await expect(second.getByTestId("command-limits-layer")).toHaveAttribute("data-layer", layer as string);
  await shot(page, testInfo, "a command stopped at the limit set in Settings");
});
