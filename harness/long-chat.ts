import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ScriptBlock } from "./desk-server.ts";

/*
 * A long chat made fast and honestly, for the long-chat bench phase and its e2e spec: the scripted model
 * asks for one command a turn, a workspace "always allow" rule for `./gen.sh` spares the approvals, and
 * each command really runs, printing its lines and changing a file (so each card has a changes section).
 */

/** The words of the chat's last assistant message, to know it is shown. */
export const LONG_CHAT_LAST_WORDS = "All the commands ran.";

/** The command the scripted model asks for as its `i`th (1-based). */
export const longChatCommand = (i: number, lines: number) => `./gen.sh ${i} ${lines}`;

/** The tool call id of the `i`th command, which its card carries as `data-command-id`. */
export const longChatId = (i: number) => `long-${i}`;

/** The script: a word first, one command a turn, then the last message. */
export function chatScript(commands: number, lines: number): ScriptBlock[][] {
  return [
    ...Array.from({ length: commands }, (_, k) => [
      ...(k === 0 ? [{ type: "text" as const, text: `Running ${commands} commands, one at a time.` }] : []),
      {
        type: "toolCall" as const,
        id: longChatId(k + 1),
        name: "run_command",
        arguments: { command: longChatCommand(k + 1, lines), timeout: 60 },
      },
    ]),
    [{ type: "text", text: LONG_CHAT_LAST_WORDS }],
  ];
}

/**
 * Lays out a host's home (agent dir, data dir with the rule, script path) and the workspace's `gen.sh`;
 * returns the host's environment, `PI_DESK_SCRIPT` naming the file the caller writes the script to.
 */
export function prepareLongChat(
  home: string,
  workspace: string,
): Record<string, string> & { PI_DESK_SCRIPT: string } {
  const gen = join(workspace, "gen.sh");
  // Prints its lines (seq: real output at real speed) and changes one file of its own.
  writeFileSync(
    gen,
    '#!/bin/sh\nseq -f "line %g of command $1: the quick brown fox jumps over the lazy dog" "$2"\nmkdir -p files\necho "command $1" > "files/f-$1.txt"\n',
  );
  chmodSync(gen, 0o755);
  // The scripted model's context fills after a few dozen outputs; Pi would then compact it, and the
  // compaction's request would take the script's next turn. The transcript keeps every entry either way.
  mkdirSync(join(home, "agent"), { recursive: true });
  writeFileSync(
    join(home, "agent", "settings.json"),
    `${JSON.stringify({ compaction: { enabled: false } })}\n`,
  );
  const data = join(home, "data");
  // The folder the host keeps this workspace's rules in (storage/data-folder.ts: workspaceDataDir).
  const dir = join(
    data,
    "workspaces",
    createHash("sha256").update(resolve(workspace)).digest("hex").slice(0, 16),
  );
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const rule = {
    id: "bench-gen",
    effect: "allow",
    match: "prefix",
    pattern: "./gen.sh",
    scope: "workspace",
    createdAt: Date.now(),
  };
  writeFileSync(join(dir, "rules.json"), `${JSON.stringify({ version: 1, rules: [rule] }, null, 2)}\n`);
  return {
    PI_DESK_SCRIPT: join(home, "script.json"),
    PI_OFFLINE: "1",
    PI_CODING_AGENT_DIR: join(home, "agent"),
    PI_DESK_DATA_DIR: data,
  };
}
