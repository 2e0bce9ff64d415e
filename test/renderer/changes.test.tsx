import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import type { CommandChanges, FileChange, RevertEntry } from "../../src/shared/changes";
import type { CommandView, RunCommandDetails } from "../../src/shared/commands";
import { fakeApi, runningCommand } from "./fixtures";

afterEach(cleanup);

const file = (path: string, kind: FileChange["kind"], added = 0, removed = 0): FileChange => ({
  path,
  kind,
  added,
  removed,
  binary: false,
  oversized: false,
});

const recorded = (files: FileChange[], extra: Partial<CommandChanges> = {}): CommandChanges => ({
  recorded: true,
  files,
  totalFiles: files.length,
  added: files.reduce((sum, f) => sum + f.added, 0),
  removed: files.reduce((sum, f) => sum + f.removed, 0),
  nestedRepositories: [],
  overlapping: [],
  ...(extra as object),
});

/** A finished command whose details carry `changes`. */
function finished(changes: CommandChanges, overrides: Partial<CommandView> = {}): CommandView {
  const details: RunCommandDetails = {
    status: "succeeded",
    command: "make edit",
    edited: false,
    cwd: "/home/ada/repo",
    timeoutSeconds: 30,
    exitCode: 0,
    timedOut: false,
    cancelled: false,
    durationMs: 40,
    truncated: false,
    totalBytes: 0,
    totalLines: 0,
    changes,
  };
  return runningCommand({ id: "c1", phase: "succeeded", command: "make edit", details, ...overrides });
}

const edit = recorded([
  file("a.txt", "modified", 2, 1),
  { ...file("big.bin", "added"), oversized: true, newSize: 20 * 1024 * 1024 },
  file("notes.txt", "added", 1),
  file("old.log", "deleted", 0, 1),
]);

describe("what a command changed, on its card", () => {
  it("sums it up, lists each file with its kind and shows the diffs on expanding", async () => {
    const api = fakeApi({
      commandDiff: vi.fn(async ({ path }: { path: string }) => ({
        path,
        text: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-two\n+TWO\n`,
        truncated: false,
      })),
    });
    render(<CommandCard command={finished(edit)} api={api} />);
    const summary = screen.getByTestId("changes-summary");
    expect(summary.dataset.files).toBe("4");
    expect(summary.textContent).toContain("Changed 4 files (+3 -2)");
    expect(screen.queryAllByTestId("changes-file")).toHaveLength(0);

    fireEvent.click(summary);
    const rows = screen.getAllByTestId("changes-file");
    expect(rows.map((row) => `${row.dataset.change} ${row.dataset.path}`)).toEqual([
      "modified a.txt",
      "added big.bin",
      "added notes.txt",
      "deleted old.log",
    ]);
    expect(rows[1]?.textContent).toContain("over the size limit, not stored (20 MB)");
    await waitFor(() => expect(screen.getAllByTestId("changes-diff")).toHaveLength(3));
    // The oversized file has no diff to ask for.
    expect(api.commandDiff).not.toHaveBeenCalledWith({ commandId: "c1", path: "big.bin" });
    expect(within(rows[0] as HTMLElement).getByTestId("changes-diff").textContent).toContain("+TWO");
  });

  it("says why nothing was recorded, and names commands that ran at the same time", () => {
    const { unmount } = render(
      <CommandCard command={finished({ recorded: false, reason: "git was not found." })} api={fakeApi()} />,
    );
    expect(screen.getByTestId("changes-off").textContent).toContain("git was not found.");
    expect(screen.queryByTestId("undo-button")).toBeNull();
    unmount();
    render(
      <CommandCard
        command={finished(
          recorded([file("a", "added")], { overlapping: [{ commandId: "c0", command: "npm run dev" }] }),
        )}
        api={fakeApi()}
      />,
    );
    expect(screen.getByTestId("changes-overlap").textContent).toContain("`npm run dev`");
  });

  it("asks before undoing, then shows the result with undo anyway for a file changed since", async () => {
    const conflict: RevertEntry = {
      kind: "undo",
      at: 1,
      result: {
        restored: ["notes.txt"],
        conflicts: [{ path: "a.txt", reason: "changed since" }],
        refused: [],
      },
    };
    const api = fakeApi({ undoCommand: vi.fn(async () => conflict.result) });
    const { rerender } = render(<CommandCard command={finished(edit)} api={api} />);
    fireEvent.click(screen.getByTestId("undo-button"));
    expect(api.undoCommand).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByTestId("undo-confirm-button")));
    expect(api.undoCommand).toHaveBeenCalledWith({ commandId: "c1" });

    // The host's record of the undo arrives on the view.
    rerender(<CommandCard command={finished(edit, { reverts: [conflict] })} api={api} />);
    const result = screen.getByTestId("undo-result");
    expect(result.dataset.state).toBe("conflicts");
    expect(result.textContent).toContain("notes.txt");
    await act(async () => fireEvent.click(screen.getByTestId("undo-anyway-button")));
    expect(api.undoCommand).toHaveBeenLastCalledWith({ commandId: "c1", undoAnyway: ["a.txt"] });
    // The card still shows what the command changed.
    expect(screen.getByTestId("changes-summary").dataset.files).toBe("4");
  });

  it("stops offering undo once the record was dropped for space, still listing the changes", () => {
    render(<CommandCard command={finished(edit, { changesDropped: true })} api={fakeApi()} />);
    expect(screen.getByTestId("changes-dropped").textContent).toContain("can no longer be undone");
    expect(screen.queryByTestId("undo-button")).toBeNull();
    expect(screen.queryByTestId("restore-button")).toBeNull();
    expect(screen.getByTestId("changes-summary").dataset.files).toBe("4");
  });

  it("shows a refused undo's reason", async () => {
    const api = fakeApi({
      undoCommand: vi.fn(async () => Promise.reject(new Error("`sleep 9` is running"))),
    });
    render(<CommandCard command={finished(edit)} api={api} />);
    fireEvent.click(screen.getByTestId("undo-button"));
    await act(async () => fireEvent.click(screen.getByTestId("undo-confirm-button")));
    expect(screen.getByTestId("undo-result").textContent).toContain("`sleep 9` is running");
  });

  it("previews a restore before applying it", async () => {
    const api = fakeApi({
      previewRestore: vi.fn(async () => ({
        previewId: "p1",
        commandId: "c1",
        changes: { files: [file("a.txt", "modified"), file("src/y.txt", "deleted")], nestedRepositories: [] },
      })),
      restoreWorkspace: vi.fn(async () => ({ restored: ["a.txt", "src/y.txt"], conflicts: [], refused: [] })),
    });
    render(<CommandCard command={finished(edit)} api={api} />);
    await act(async () => fireEvent.click(screen.getByTestId("restore-button")));
    expect(screen.getByTestId("restore-preview").textContent).toContain("src/y.txt");
    expect(api.restoreWorkspace).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByTestId("restore-confirm-button")));
    expect(api.restoreWorkspace).toHaveBeenCalledWith({ previewId: "p1" });
  });
});
