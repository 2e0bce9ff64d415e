import { describe, expect, it } from "vitest";
import { CommandViews } from "../../../src/main/agent/command-views";
import type { RunCommandDetails } from "../../../src/shared/commands";
import type { ChatEventBody } from "../../../src/shared/host-events";
import { TAIL_LINES } from "../../../src/shared/output-tail";

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

function ended(text: string, saved: boolean) {
  const events: ChatEventBody[] = [];
  const views = new CommandViews((event) => events.push(event), "/work", 600);
  views.started("c1", { command: "seq 2000" }, true);
  const details: RunCommandDetails = {
    status: "succeeded",
    command: "seq 2000",
    edited: false,
    cwd: "/work",
    timeoutSeconds: 60,
    exitCode: 0,
    timedOut: false,
    cancelled: false,
    durationMs: 12,
    truncated: saved,
    ...(saved ? { fullOutputPath: "/data/outputs/c1.log" } : {}),
    totalBytes: text.length,
    totalLines: 2000,
  };
  views.ended("c1", details, text, true);
  return { view: views.byId.get("c1"), events };
}

describe("an ended command's output in its view", () => {
  it("holds only what its card shows when the full output is saved, so a reopened long chat stays small", () => {
    const { view, events } = ended(lines(2000), true);
    const shown = view?.output.split("\n") ?? [];
    expect(shown).toHaveLength(TAIL_LINES);
    expect(shown.at(-1)).toBe("line 2000");
    expect(shown[0]).toBe(`line ${2000 - TAIL_LINES + 1}`);
    // The page gets the same: the card's count of lines left out comes from the details.
    const update = events.at(-1);
    expect(update?.type === "command-update" && update.command.output).toBe(view?.output);
  });

  it("keeps the whole text when nothing is saved: the full-output view shows it from the card", () => {
    const { view } = ended(lines(2000), false);
    expect(view?.output).toBe(lines(2000));
  });
});
