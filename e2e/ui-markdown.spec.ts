import { expect, openDesk, say, send } from "../harness/desk-page";
import { HOSTILE_HOST, hostileMessages } from "../harness/hostile-markdown";
import { test } from "./support/desk-test";

/*
 * The model's text is untrusted: a prompt injection in a file it read can make it write anything. Each
 * hostile message (harness/hostile-markdown.ts) is drawn in Chromium through the browser host, and the page
 * must send no request for it (not even one the CSP would block: that would still be the renderer trying),
 * run no script, open no dialog, and draw nothing outside the message's box.
 */

test.describe.configure({ timeout: 300_000 });

/** Where the page records what its CSP refused: a renderer that tried to fetch or run something. */
const RECORD_VIOLATIONS = () => {
  const seen: string[] = [];
  (window as unknown as { cspViolations: string[] }).cspViolations = seen;
  document.addEventListener("securitypolicyviolation", (event) => {
    seen.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
};

test("hostile Markdown from the model fetches nothing, runs nothing and stays in its box", async ({
  page,
  scriptedDesk,
}) => {
  // Each message in a chat of its own (below), each chat's turn by its first message ("next N").
  const desk = await scriptedDesk(
    Object.fromEntries(
      hostileMessages.map(({ name, text }, index) => [
        `next ${index}`,
        [[say(`Message ${index}: ${name}\n\n${text}`)]],
      ]),
    ),
  );
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(RECORD_VIOLATIONS);
  await openDesk(page, desk);

  for (const [index, { name }] of hostileMessages.entries()) {
    // A chat of its own for each message: all of them in one would pass the model's context window, and
    // Pi's compaction would then take a turn of the script.
    if (index > 0) {
      await page.getByTestId("new-session").click();
      await expect(page.getByTestId("assistant-message")).toHaveCount(0);
    }
    await send(page, `next ${index}`);
    const message = page
      .getByTestId("assistant-message")
      .filter({ hasText: `Message ${index}: ${name}` })
      .and(page.locator('[data-streaming="false"]'));
    await expect(message).toHaveCount(1);
    const layout = await message.evaluate((box) => {
      const markdown = box.querySelector(".markdown") as HTMLElement;
      const positioned = [...markdown.querySelectorAll("*")].filter((element) => {
        const position = getComputedStyle(element).position;
        return (position === "fixed" || position === "absolute") && !element.classList.contains("sr-only");
      });
      const prompt = document.querySelector('[data-testid="prompt-input"]') as HTMLElement;
      const rect = prompt.getBoundingClientRect();
      const atPrompt = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return {
        overflows: markdown.scrollWidth > markdown.clientWidth + 1,
        positioned: positioned.map((element) => element.outerHTML.slice(0, 80)),
        promptReachable: atPrompt === prompt || prompt.contains(atPrompt),
      };
    });
    expect(layout, name).toEqual({ overflows: false, positioned: [], promptReachable: true });
    const violations = await page.evaluate(
      () => (window as unknown as { cspViolations: string[] }).cspViolations,
    );
    expect(violations, name).toEqual([]);
  }

  // The remote images were drawn as links naming their host; none was fetched, nor anything else off the page.
  expect(requests.filter((url) => url.includes(HOSTILE_HOST))).toEqual([]);
  const offPage = requests.filter((url) => !url.startsWith(desk.origin) && !url.startsWith("data:"));
  expect(offPage).toEqual([]);
  expect(dialogs).toEqual([]);
});

test("code is highlighted in the theme's colours, its grammar loaded only once a block needs it", async ({
  page,
  scriptedDesk,
}) => {
  const desk = await scriptedDesk([
    [say("No code here, only **prose**.")],
    [say("Here:\n\n```ts\nconst answer: number = 42; // the answer\n```")],
  ]);
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await page.addInitScript(RECORD_VIOLATIONS);
  await openDesk(page, desk);
  const loaded = (name: string) => scripts.some((path) => path.includes(`/${name}-`));

  await send(page, "prose");
  await expect(page.getByTestId("assistant-message").locator("strong")).toHaveText("prose");
  expect(loaded("shiki-tokens")).toBe(false);
  expect(loaded("typescript")).toBe(false);

  await send(page, "code");
  const code = page.locator('code[data-highlighted="true"]');
  await expect(code).toHaveText("const answer: number = 42; // the answer");
  expect(loaded("shiki-tokens")).toBe(true);
  expect(loaded("typescript")).toBe(true);
  expect(loaded("python")).toBe(false);
  await expect(page.locator(".code-language")).toHaveText("ts");

  const keyword = code.locator(".code-token", { hasText: "const" });
  const colour = () => keyword.evaluate((element) => getComputedStyle(element).color);
  await page.emulateMedia({ colorScheme: "light" });
  const light = await colour();
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(colour).not.toBe(light);
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual(
    [],
  );
});
