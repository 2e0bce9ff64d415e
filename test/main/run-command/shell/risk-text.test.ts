// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${...} is bash, not a template
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../../../src/main/run-command/shell/shell-parser";
import { riskTextEn } from "../../../../src/renderer/src/i18n/risks.en";
import { riskTextZh } from "../../../../src/renderer/src/i18n/risks.zh";

/** Lines that, together, raise every kind of risk note the host words. */
const LINES = [
  "npm test 2>&1 | tail -20 && echo ok || echo failed; sleep 1 &",
  "cat <<'EOF' > out.txt\nhello\nEOF",
  "sort < in.txt >> out.txt 3<> rw.txt 2>&- <<< 'x'",
  "echo $(date) <(ls) ${HOME} *.js ~ # note",
  "(cd src && ls) { echo a; }",
  "f() { echo hi; }",
  "for x in a b; do echo $x; done",
  "while true; do break; done; if true; then :; fi; case a in a) :;; esac",
  "declare -i n=1; FOO=1 make; export BAR=2; let 'y=1'",
  'echo $((x + 1)); eval "$CMD"',
  "nohup node server.js; env A=1 timeout 5 npm test; sudo ls; bash -c 'ls'; xargs rm; npx vite",
  "taskset 1 ls; alias ll=ls; ëcho hi",
  "echo \u202e abc",
  "echo 'unclosed",
  "ls \\ -la",
];

describe("risk notes worded by the page", () => {
  it("says in English exactly what the host says, for every risk it raises", async () => {
    let checked = 0;
    for (const line of LINES) {
      const parsed = await parseCommandLine(line);
      for (const risk of parsed.risks) {
        expect(risk.say, `${risk.kind} in ${JSON.stringify(line)}`).toBeDefined();
        if (!risk.say) continue;
        expect(riskTextEn(risk.say), `${risk.kind} at ${JSON.stringify(risk.text)}`).toBe(risk.note);
        checked += 1;
      }
    }
    // Every kind of `say` is among them, so a new note without its page wording fails here.
    const ids = new Set<string>();
    for (const line of LINES)
      for (const risk of (await parseCommandLine(line)).risks) ids.add(risk.say?.id ?? "");
    expect([...ids].sort()).toEqual(
      [
        "assignment",
        "compound",
        "fixed",
        "hidden-character",
        "integer",
        "list-operator",
        "lookalike",
        "misread",
        "pattern",
        "redirect",
        "runs-next",
        "unchecked",
        "unreadable",
      ].sort(),
    );
    expect(checked).toBeGreaterThan(30);
  });

  it("has a Chinese wording for each of them", async () => {
    for (const line of LINES) {
      for (const risk of (await parseCommandLine(line)).risks) {
        if (!risk.say) continue;
        const zh = riskTextZh(risk.say);
        expect(zh, `${risk.kind} at ${JSON.stringify(risk.text)}`).not.toBe("");
        expect(zh).not.toBe(risk.note);
      }
    }
  });
});
