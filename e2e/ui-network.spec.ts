import { once } from "node:events";
import { createServer, type Server } from "node:http";
import {
  card,
  expect,
  expectPending,
  openDesk,
  say,
  send,
  shot,
  UI_TEST_TIMEOUT_MS,
} from "../harness/desk-page";
import type { ScriptBlock } from "../harness/desk-server";
import { test } from "./support/desk-test";

test.describe.configure({ timeout: UI_TEST_TIMEOUT_MS });

/** The fake upstream both test names point at, on 127.0.0.2 (reached only through the sandbox's proxy). */
let upstream: Server;
let port = 0;
test.beforeAll(async () => {
  upstream = createServer((request, response) => response.end(`upstream says hi to ${request.url}\n`));
  upstream.listen(0, "127.0.0.2");
  await once(upstream, "listening");
  port = (upstream.address() as { port: number }).port;
});
test.afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

/** The test-only serve flags: the two names lead to the fake upstream. */
const NETWORK_ARGS = [
  "--resolve-host",
  "registry.test=127.0.0.2",
  "--resolve-host",
  "other.test=127.0.0.2",
  "--allow-loopback-targets",
];

const call = (id: string, command: string, network?: string[]): ScriptBlock => ({
  type: "toolCall",
  id,
  name: "run_command",
  arguments: network ? { command, network } : { command },
});
const curl = (name: string, path: string) => `curl -s --max-time 5 http://${name}:${port}${path}`;

test("Settings' presets and list, the card's network choice, the hosts seen and Allow for this workspace", async ({
  page,
  scriptedDesk,
}, testInfo) => {
  test.skip(process.platform !== "linux", "host rules need bubblewrap");
  const desk = await scriptedDesk(
    [
      [
        call("n-1", `${curl("registry.test", "/first")}; ${curl("other.test", "/second")}; true`, [
          "other.test",
        ]),
      ],
      [say("The first fetch is done.")],
      [call("n-2", curl("other.test", "/third"))],
      [call("n-3", curl("registry.test", "/fourth"))],
      [say("All fetched.")],
    ],
    { args: NETWORK_ARGS },
  );
  await openDesk(page, desk);

  // Settings: a preset in one click, an entry typed in, a bad entry refused with the reason.
  await page.getByTestId("nav-settings").click();
  const settings = page.getByTestId("allowed-hosts");
  await expect(settings.getByTestId("allowed-hosts-none")).toBeVisible();
  await settings.getByTestId("host-preset-npm").click();
  await expect(settings.locator('[data-testid="allowed-host"] code')).toHaveText(["registry.npmjs.org"]);
  await settings.getByTestId("allowed-host-input").fill("*.com");
  await settings.getByTestId("allowed-host-add").click();
  await expect(settings.getByTestId("allowed-hosts-error")).toContainText('"*.com"');
  await settings.getByTestId("allowed-host-input").fill("registry.test");
  await settings.getByTestId("allowed-host-add").click();
  await expect(settings.getByTestId("allowed-host")).toHaveCount(2);
  await expect(settings.getByTestId("allowed-hosts-error")).toHaveCount(0);
  await settings.locator('[data-host="registry.npmjs.org"]').getByTestId("allowed-host-remove").click();
  await expect(settings.locator('[data-testid="allowed-host"] code')).toHaveText(["registry.test"]);
  await shot(page, testInfo, "allowed hosts in Settings");

  // The card: allowed hosts by default, listed; the agent's asked host offered, not granted.
  await page.getByTestId("nav-chat").click();
  await send(page, "Fetch the two files");
  const pending = await expectPending(page, "n-1");
  await expect(pending.getByTestId("tray-network-hosts")).toBeChecked();
  await expect(pending.getByTestId("tray-network-hosts-list")).toHaveText("registry.test");
  await expect(pending.getByTestId("tray-network-asked-host")).toContainText("other.test");
  // Full shows its warning; back to allowed hosts for this one.
  await pending.getByTestId("tray-allow-network").check();
  await expect(pending.getByTestId("tray-network-local-services")).toContainText("any host on the internet");
  await pending.getByTestId("tray-network-hosts").check();
  await expect(pending.getByTestId("tray-network-local-services")).toHaveCount(0);
  await shot(page, testInfo, "the card's network choice");
  await pending.getByTestId("tray-approve-button").click();

  // The hosts seen: one reached, one refused, with Allow for this workspace.
  const first = card(page, "n-1");
  await expect(first).toHaveAttribute("data-status", "succeeded", { timeout: 20_000 });
  await expect(first.getByTestId("command-output")).toContainText("upstream says hi to /first");
  await expect(first.getByTestId("command-output")).not.toContainText("/second");
  const reached = first.locator('[data-testid="host-seen"][data-host="registry.test"]');
  const refused = first.locator('[data-testid="host-seen"][data-host="other.test"]');
  await expect(reached).toHaveAttribute("data-allowed", "true");
  await expect(reached).toContainText("1 connection");
  await expect(refused).toHaveAttribute("data-allowed", "false");
  await expect(refused).toContainText("not in the allowed hosts");
  await refused.getByTestId("host-allow-workspace").click();
  await expect(refused.getByTestId("host-allowed-for-workspace")).toContainText("from the next command");
  await expect(page.getByTestId("assistant-message").last()).toContainText("The first fetch is done.");
  await shot(page, testInfo, "hosts reached and refused");

  // The next command runs with the added host, and the list shows it.
  await send(page, "Fetch the third");
  const second = await expectPending(page, "n-2");
  await expect(second.locator('[data-testid="tray-network-hosts-list"] code')).toHaveText([
    "registry.test",
    "other.test",
  ]);
  await second.getByTestId("tray-approve-button").click();
  await expect(card(page, "n-2").getByTestId("command-output")).toContainText("upstream says hi to /third", {
    timeout: 20_000,
  });

  // Off: the same allowed name does not get through.
  const third = await expectPending(page, "n-3");
  await third.getByTestId("tray-network-off").check();
  await third.getByTestId("tray-approve-button").click();
  await expect(page.getByTestId("assistant-message").last()).toContainText("All fetched.", {
    timeout: 20_000,
  });
  await expect(card(page, "n-3").getByTestId("command-output")).not.toContainText("upstream says hi");
  await expect(card(page, "n-3").getByTestId("hosts-seen")).toHaveCount(0);

  await page.getByTestId("nav-settings").click();
  await expect(page.locator('[data-testid="allowed-host"] code')).toHaveText(["registry.test", "other.test"]);
});
