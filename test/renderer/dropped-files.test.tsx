import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Composer } from "../../src/renderer/src/features/chat/Composer";
import { fakeApi } from "./fixtures";

afterEach(() => {
  cleanup();
  delete window.piDeskFiles;
});

/** Drops files on the composer, as from the OS's file manager. */
function drop(...files: File[]): void {
  const form = (screen.getByTestId("prompt-input") as HTMLElement).closest("form") as HTMLFormElement;
  fireEvent.drop(form, { dataTransfer: { files, types: ["Files"] } });
}

/** Where the desktop app's preload says each file lies, by name. */
function desktop(paths: Record<string, string>): void {
  window.piDeskFiles = { pathOf: (file: File) => paths[file.name] ?? "" };
}

describe("a file dropped on the composer", () => {
  it("inside the chat's folder is named as @path at the caret, quoted around spaces", () => {
    desktop({ "main.ts": "/work/repo/src/main.ts", "my notes.md": "/work/repo/docs/my notes.md" });
    render(<Composer api={fakeApi()} running={false} folder="/work/repo" />);
    const input = screen.getByTestId("prompt-input") as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: "Compare", selectionStart: 7 } });
    drop(new File(["x"], "main.ts", { type: "text/plain" }), new File(["y"], "my notes.md"));
    expect(input.value).toBe('Compare @src/main.ts @"docs/my notes.md" ');
  });

  it("outside the folder, or where the page cannot know where it lies, is refused saying why", () => {
    desktop({ "secrets.txt": "/home/me/secrets.txt", "trick.ts": "/work/repo/../other/trick.ts" });
    render(<Composer api={fakeApi()} running={false} folder="/work/repo" />);
    drop(new File(["x"], "secrets.txt"));
    expect(screen.getByTestId("prompt-error").textContent).toContain(
      "secrets.txt is outside this chat's folder (/work/repo)",
    );
    drop(new File(["x"], "trick.ts"));
    expect(screen.getByTestId("prompt-error").textContent).toContain("trick.ts is outside");
    delete window.piDeskFiles;
    drop(new File(["x"], "notes.md"));
    expect(screen.getByTestId("prompt-error").textContent).toContain(
      "The browser does not say where notes.md lies",
    );
    expect((screen.getByTestId("prompt-input") as HTMLTextAreaElement).value).toBe("");
  });
});
