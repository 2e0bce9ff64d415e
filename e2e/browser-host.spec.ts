import { basename } from "node:path";
import { expect, test } from "./support/desk-test";

test("the browser host shows the workspace it was started with", async ({ page, desk }, testInfo) => {
  await page.goto(desk.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");
  await expect(page.getByTestId("workspace-name")).toHaveText(basename(desk.workspace));
  await expect(page.getByTestId("workspace-path")).toHaveText(desk.workspace);
  await expect(page).toHaveTitle(`${basename(desk.workspace)} — Pi Desk`);
  // The token leaves the address bar as soon as the page has it.
  expect(page.url()).not.toContain("token");
  await testInfo.attach("workspace", { body: await page.screenshot(), contentType: "image/png" });
});

test("a reload keeps the connection without the token in the URL", async ({ page, desk }) => {
  await page.goto(desk.url);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");
  await page.reload();
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "connected");
  await expect(page.getByTestId("workspace-path")).toHaveText(desk.workspace);
});

test("without the token the page is told how to get in, and the host refuses it", async ({ page, desk }) => {
  await page.goto(desk.origin);
  await expect(page.getByTestId("connection-status")).toHaveAttribute("data-status", "disconnected");
  await expect(page.getByTestId("connection-problem")).toContainText("Open the full URL");
  await expect(page.getByTestId("workspace")).toHaveCount(0);

  // A page on the right origin that guesses the token is refused at the handshake.
  const opened = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/`, ["pi-desk.v1", "pi-desk-token.guess"]);
        ws.onopen = () => resolve(true);
        ws.onclose = () => resolve(false);
      }),
  );
  expect(opened).toBe(false);
});
