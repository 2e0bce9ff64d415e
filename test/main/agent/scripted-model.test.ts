import { describe, expect, it } from "vitest";
import { loadScript, scriptPathFromEnv } from "../../../src/main/agent/scripted-model";
import { tempDir, writeScript } from "./session-harness";

/** The error loading a script with these contents gives, without the file's path. */
function problemWith(contents: unknown): string {
  const path = writeScript(contents);
  try {
    loadScript(path);
  } catch (error) {
    const message = (error as Error).message;
    expect(message.startsWith(`PI_DESK_SCRIPT ${path}: `)).toBe(true);
    return message.slice(`PI_DESK_SCRIPT ${path}: `.length);
  }
  throw new Error("expected the script to be refused");
}

describe("loadScript", () => {
  it("reads every kind of block", () => {
    const turns = [
      [
        { type: "delay", ms: 10 },
        { type: "thinking", thinking: "Hmm." },
        { type: "text", text: "Running it." },
        { type: "toolCall", name: "run_command", arguments: { command: "ls", timeout: 5 } },
        { type: "toolCall", id: "call-2", name: "run_command", arguments: { command: "pwd" } },
      ],
      [{ type: "error", message: "500 overloaded" }],
    ];
    const path = writeScript(turns);
    expect(loadScript(path)).toEqual({ source: path, turns });
    expect(loadScript(writeScript([]))).toMatchObject({ turns: [] });
  });

  it("reads an object of scripts by the start of a chat's first message, the empty key for every other chat", () => {
    const mine = [[{ type: "text", text: "mine" }]];
    const rest = [[{ type: "text", text: "rest" }]];
    const path = writeScript({ "fix the": mine, "": rest });
    expect(loadScript(path)).toEqual({
      source: path,
      turns: rest,
      byFirstMessage: { "fix the": mine, "": rest },
    });
  });

  it("names the file, the turn, the block and what is wrong", () => {
    expect(problemWith("[[{]]")).toMatch(/^the file is not valid JSON \(.+\)\.$/);
    expect(problemWith(42)).toBe(
      "expected an array of turns (each an array of blocks), or an object of them by the start of a chat's first message, got a number.",
    );
    expect(problemWith({ "fix the": [[{ type: "text" }]] })).toBe(
      'chat "fix the", turn 1, block 1 (text): missing field "text".',
    );
    expect(problemWith({ "fix the": "hello" })).toBe(
      'chat "fix the": expected an array of turns, got a string.',
    );
    expect(problemWith([[{ type: "text", text: "ok" }], "hello"])).toBe(
      "turn 2: expected an array of blocks, got a string.",
    );
    expect(problemWith([[]])).toBe("turn 1: a turn needs at least one block.");
    expect(problemWith([[{ type: "text", text: "ok" }], [{ type: "tool_call", name: "x" }]])).toBe(
      'turn 2, block 1: unknown block type "tool_call"; use one of "text", "thinking", "toolCall", "error", "delay".',
    );
    expect(problemWith([[{ text: "no type" }]])).toMatch(
      /^turn 1, block 1: missing field "type" \(use one of /,
    );
    expect(problemWith([[42]])).toMatch(
      /^turn 1, block 1: expected an object with a "type" field .*got a number\.$/,
    );
    expect(problemWith([[{ type: "toolCall", name: "run_command", args: { command: "ls" } }]])).toBe(
      'turn 1, block 1 (toolCall): missing field "arguments"; unknown field "args".',
    );
    expect(problemWith([[{ type: "toolCall", name: "run_command", arguments: ["ls"] }]])).toBe(
      'turn 1, block 1 (toolCall): "arguments" must be object.',
    );
    expect(problemWith([[{ type: "text", text: 7 }]])).toBe('turn 1, block 1 (text): "text" must be string.');
    expect(problemWith([[{ type: "delay", ms: -1 }]])).toBe('turn 1, block 1 (delay): "ms" must be >= 0.');
  });

  it("keeps delays first and errors last, where they mean something", () => {
    expect(
      problemWith([
        [
          { type: "text", text: "a" },
          { type: "delay", ms: 5 },
        ],
      ]),
    ).toMatch(/^turn 1, block 2 \(delay\): a delay block must come first in its turn/);
    expect(
      problemWith([
        [
          { type: "error", message: "boom" },
          { type: "text", text: "a" },
        ],
      ]),
    ).toMatch(/^turn 1, block 1 \(error\): an error block must come last in its turn/);
  });

  it("says so when the file cannot be read", () => {
    const missing = `${tempDir("script")}/missing.json`;
    expect(() => loadScript(missing)).toThrow(
      new RegExp(
        `^PI_DESK_SCRIPT ${missing}: cannot read the file \\(.*ENOENT.*\\)\\. Point PI_DESK_SCRIPT at`,
      ),
    );
  });
});

describe("scriptPathFromEnv", () => {
  it("gives an absolute path when PI_DESK_SCRIPT is set, and nothing when it is unset or blank", () => {
    expect(scriptPathFromEnv({ PI_DESK_SCRIPT: "/tmp/demo.json" })).toBe("/tmp/demo.json");
    expect(scriptPathFromEnv({ PI_DESK_SCRIPT: "demo.json" })).toBe(`${process.cwd()}/demo.json`);
    expect(scriptPathFromEnv({ PI_DESK_SCRIPT: "  " })).toBeUndefined();
    expect(scriptPathFromEnv({})).toBeUndefined();
  });
});
