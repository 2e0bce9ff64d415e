import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { noticeText } from "../../src/renderer/src/features/chat/TranscriptItems";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import { SettingsView } from "../../src/renderer/src/features/settings/SettingsView";
import { en } from "../../src/renderer/src/i18n/en";
import { I18nProvider, pickLanguage } from "../../src/renderer/src/i18n/i18n";
import { zh } from "../../src/renderer/src/i18n/zh";
import type { NoticeItem } from "../../src/shared/transcript";
import { fakeApi, hostState, pendingCommand } from "./fixtures";

afterEach(() => {
  cleanup();
  localStorage.clear();
});

/** Every key path of a dictionary, with the kind of value there. */
function shape(messages: object, prefix = ""): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === "object" && value !== null
      ? shape(value, `${prefix}${key}.`)
      : [`${prefix}${key}:${typeof value}`],
  );
}

describe("languages", () => {
  it("follows the browser, unless the person chose in settings", () => {
    expect(pickLanguage(null, ["zh-CN", "en"])).toBe("zh-CN");
    expect(pickLanguage(null, ["zh-TW"])).toBe("zh-CN");
    expect(pickLanguage(null, ["fr-FR", "en-GB"])).toBe("en");
    expect(pickLanguage(null, ["fr-FR"])).toBe("en");
    expect(pickLanguage("en", ["zh-CN"])).toBe("en");
    expect(pickLanguage("klingon", ["zh-CN"])).toBe("zh-CN");
  });

  it("has every message in Chinese that it has in English", () => {
    expect(shape(zh)).toEqual(shape(en));
  });

  it("draws a card in Chinese", () => {
    render(
      <I18nProvider initial="zh-CN">
        <CommandCard command={pendingCommand()} api={fakeApi()} />
      </I18nProvider>,
    );
    expect(screen.getByTestId("approve-button").textContent).toBe("批准");
    expect(screen.getByTestId("command-card").textContent).toContain("待批准");
    expect(document.documentElement.lang).toBe("zh-CN");
  });

  it("words the host's risk notes in the page's language, from their kind", () => {
    const risk = {
      kind: "redirection",
      text: "> log.txt",
      start: 9,
      end: 18,
      note: "Writes the command's output to a file.",
    };
    const withSay = [{ ...risk, say: { id: "redirect", kind: "write" } as const }];
    render(
      <I18nProvider initial="zh-CN">
        <CommandCard command={pendingCommand({ risks: withSay })} api={fakeApi()} />
      </I18nProvider>,
    );
    const card = screen.getByTestId("command-card");
    expect(card.textContent).toContain("把命令的输出写入文件。");
    expect(card.textContent).not.toContain("Writes the command's output");
    expect(card.querySelector("mark.command-risk")?.getAttribute("title")).toBe("把命令的输出写入文件。");
    cleanup();
    // A kind this page does not know: the host's English sentence, rather than nothing.
    const unknown = [{ ...risk, say: { id: "fixed", kind: "from-a-newer-host" } as const }];
    render(
      <I18nProvider initial="zh-CN">
        <CommandCard command={pendingCommand({ risks: unknown })} api={fakeApi()} />
      </I18nProvider>,
    );
    expect(screen.getByTestId("command-card").textContent).toContain(
      "Writes the command's output to a file.",
    );
  });

  it("words a background command's end in the page's language, not the words meant for the model", () => {
    const item: NoticeItem = {
      kind: "notice",
      id: "n1",
      level: "info",
      text: "Background command `npm run dev`: It was stopped by you (stop_command); its whole process tree has ended.",
      say: {
        id: "background-ended",
        command: "npm run dev",
        state: { status: "stopped", stoppedBy: "agent", ports: [], capSeconds: 60, startedAt: 0 },
      },
    };
    expect(noticeText(en, item)).toBe("Background command npm run dev: stopped by the agent.");
    expect(noticeText(zh, item)).toBe(`后台命令 npm run dev：${zh.background.stoppedBy.agent}。`);
    // A notice without a kind keeps the host's text.
    expect(noticeText(zh, { kind: "notice", id: "n2", level: "error", text: "The provider is down." })).toBe(
      "The provider is down.",
    );
  });

  it("switches language from settings and remembers it", () => {
    render(
      <I18nProvider initial="en">
        <SettingsView host={hostState()} api={fakeApi()} />
      </I18nProvider>,
    );
    fireEvent.change(screen.getByTestId("language-select"), { target: { value: "zh-CN" } });
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("设置");
    expect(localStorage.getItem("pi-desk-language")).toBe("zh-CN");
  });
});
