import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import { SettingsView } from "../../src/renderer/src/features/settings/SettingsView";
import { I18nProvider } from "../../src/renderer/src/i18n/i18n";
import type { CommandRule } from "../../src/shared/rules";
import { fakeApi, hostState, pendingCommand } from "./fixtures";

// What the page says about the argument table: why a rule did not apply, what an offered prefix really
// covers, and which saved rules cover less than before.

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const find = {
  exact: "find . -name a.txt",
  prefixes: ["find", "find ."],
  except: ["runs", "writes"] as const,
};

describe("the argument table on the page", () => {
  it("says on the card why a rule that starts like the command did not spare the question", () => {
    const command = pendingCommand({
      command: "find . -maxdepth 0 -exec touch M \\;",
      ruleNotApplied: { pattern: "find .", argument: "-exec", effect: "runs" },
    });
    render(<CommandCard command={command} api={fakeApi()} />);
    const note = screen.getByTestId("rule-not-applied");
    expect(note.textContent).toBe(
      "The rule “find .” is in force, but -exec runs another program, which the rule does not cover: you decide this one.",
    );
    expect(note.dataset).toMatchObject({ argument: "-exec", effect: "runs" });
    cleanup();
    render(<CommandCard command={pendingCommand()} api={fakeApi()} />);
    expect(screen.queryByTestId("rule-not-applied")).toBeNull();
  });

  it("offers a prefix with its real meaning, in the summary too", () => {
    const api = fakeApi();
    render(
      <CommandCard
        command={pendingCommand({ ruleOffer: { ...find, except: [...find.except] } })}
        api={api}
      />,
    );
    const card = within(screen.getByTestId("command-card"));
    fireEvent.click(card.getByTestId("always-allow-button"));
    const label = "Any command starting with “find .”, except ones that run programs, delete or write files";
    fireEvent.click(card.getByLabelText(label));
    expect(card.getByTestId("rule-summary").textContent).toBe(`${label} will run without asking: This chat.`);
    fireEvent.click(card.getByTestId("always-allow-confirm"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve" },
      rule: { effect: "allow", match: "prefix", pattern: "find .", scope: "session" },
    });
  });

  it("says only what the program's rows leave out", () => {
    render(
      <CommandCard
        command={pendingCommand({
          ruleOffer: { exact: "sort a.txt", prefixes: ["sort"], except: ["writes"] },
        })}
        api={fakeApi()}
      />,
    );
    fireEvent.click(screen.getByTestId("always-allow-button"));
    expect(
      screen.getByLabelText("Any command starting with “sort”, except ones that delete or write files"),
    ).toBeTruthy();
  });

  it("marks a saved rule that is narrower than before, in English and Chinese", () => {
    const rules: CommandRule[] = [
      {
        id: "r1",
        effect: "allow",
        match: "prefix",
        pattern: "find .",
        scope: "workspace",
        createdAt: 1,
        narrowed: ["runs", "writes"],
      },
      { id: "r2", effect: "allow", match: "prefix", pattern: "ls", scope: "workspace", createdAt: 1 },
    ];
    render(<SettingsView host={hostState({ rules })} api={fakeApi()} />);
    const [narrowed, plain] = screen.getAllByTestId("rule-row");
    expect(within(narrowed as HTMLElement).getByTestId("rule-narrowed").textContent).toBe(
      "Narrower than before: saved before Pi Desk's argument table, it no longer covers arguments that run programs, delete or write files. Edit and save it to keep it as it is now.",
    );
    expect(within(plain as HTMLElement).queryByTestId("rule-narrowed")).toBeNull();
    cleanup();
    localStorage.setItem("pi-desk-language", "zh-CN");
    render(
      <I18nProvider>
        <SettingsView host={hostState({ rules })} api={fakeApi()} />
      </I18nProvider>,
    );
    expect(screen.getByTestId("rule-narrowed").textContent).toContain("范围比以前窄");
  });
});
