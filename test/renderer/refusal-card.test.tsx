import { cleanup, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import { EditCard } from "../../src/renderer/src/features/edits/EditCard";
import { I18nProvider, type Language } from "../../src/renderer/src/i18n/i18n";
import type { RunCommandDetails } from "../../src/shared/commands";
import type { EditView } from "../../src/shared/edits";
import type { RefusalText } from "../../src/shared/host-text";
import { fakeApi, runningCommand } from "./fixtures";

afterEach(cleanup);

/** The host's sentence and kind for `curl` refused under the allowlist npm, git (as checkAllowlist makes them). */
const CURL_REASON =
  'Refused by the command policy: "curl" is not on the allowlist; the redirection "> out.txt" writes to a file (only 2>&1 and >/dev/null are allowed) (allowed: npm, git). Ask the user to run it, or use an allowed command.';
const CURL_SAY: RefusalText = {
  id: "policy",
  problems: [
    { id: "not-allowed", name: "curl" },
    { id: "redirect-write", text: "> out.txt" },
  ],
  allowed: ["npm", "git"],
};

function refused(reason: string, reasonSay?: RefusalText) {
  const details: RunCommandDetails = {
    status: "refused",
    command: "curl example.com > out.txt",
    edited: false,
    cwd: "/home/ada/repo",
    timeoutSeconds: 30,
    exitCode: null,
    timedOut: false,
    cancelled: false,
    durationMs: 0,
    truncated: false,
    totalBytes: 0,
    totalLines: 0,
    reason,
    ...(reasonSay ? { reasonSay } : {}),
  };
  return runningCommand({ phase: "refused", output: "", details });
}

function inLanguage(language: Language, node: ReactNode) {
  render(<I18nProvider initial={language}>{node}</I18nProvider>);
}

describe("a refused command's reason, in the page's language", () => {
  it("is Chinese on the Chinese page", () => {
    inLanguage("zh-CN", <CommandCard command={refused(CURL_REASON, CURL_SAY)} api={fakeApi()} />);
    const text = screen.getByTestId("command-reason").textContent ?? "";
    expect(text).toContain(
      "命令策略拒绝了它：“curl”不在允许列表中；重定向“> out.txt”会写入文件（只允许 2>&1 和 >/dev/null）（允许的命令：npm、git）。",
    );
    expect(text).not.toContain("allowlist");
  });

  it("is the host's own sentence on the English page", () => {
    inLanguage("en", <CommandCard command={refused(CURL_REASON, CURL_SAY)} api={fakeApi()} />);
    expect(screen.getByTestId("command-reason").textContent).toBe(`Reason: ${CURL_REASON}`);
  });

  it("falls back to the host's sentence for a kind the page does not know, or none", () => {
    const unknown = { id: "from-a-newer-host", hint: 1 } as unknown as RefusalText;
    inLanguage("zh-CN", <CommandCard command={refused("A newer refusal.", unknown)} api={fakeApi()} />);
    expect(screen.getByTestId("command-reason").textContent).toContain("A newer refusal.");
    cleanup();
    inLanguage("zh-CN", <CommandCard command={refused("An older host's refusal.")} api={fakeApi()} />);
    expect(screen.getByTestId("command-reason").textContent).toContain("An older host's refusal.");
  });
});

describe("a failed edit's reason, in the page's language", () => {
  const failed: EditView = {
    id: "e1",
    tool: "edit",
    path: "src/sum.js",
    status: "failed",
    reason:
      "src/sum.js changed on disk while the edit waited for the user (another command, or the user's editor); nothing was written, so no change was lost. Read the file again and propose the edit anew.",
    reasonSay: { id: "changed-on-disk", path: "src/sum.js" },
  };

  it("is Chinese on the Chinese page and the host's sentence on the English one", () => {
    inLanguage("zh-CN", <EditCard edit={failed} api={fakeApi()} />);
    expect(screen.getByTestId("edit-error").textContent).toBe(
      "在编辑等待用户期间，src/sum.js 在磁盘上被改动了（另一条命令，或用户的编辑器）；没有写入任何内容，所以没有丢失改动。请重新读取文件，再提出编辑。",
    );
    cleanup();
    inLanguage("en", <EditCard edit={failed} api={fakeApi()} />);
    expect(screen.getByTestId("edit-error").textContent).toBe(failed.reason);
  });
});
