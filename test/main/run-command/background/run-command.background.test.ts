import { afterEach, describe, expect, it, vi } from "vitest";
import { freePort } from "../../../../harness/free-port";
import {
  BackgroundCommands,
  type BackgroundListener,
} from "../../../../src/main/run-command/background/background-commands";
import {
  createCommandOutputTool,
  createStopCommandTool,
} from "../../../../src/main/run-command/background/background-tools";
import type { BackgroundState } from "../../../../src/shared/commands";
import { liveSleeps, uniqueSeconds, waitFor } from "../process/process-probe";
import { makeWorkspace, runTool } from "../run-command-harness";

/** A registry that remembers what it told its owner. */
function registry(max?: number) {
  const ends: { id: string; state: BackgroundState }[] = [];
  const listener: BackgroundListener = {
    onState: () => {},
    onOutput: () => {},
    onEnd: (id, _command, state) => ends.push({ id, state }),
  };
  return { commands: new BackgroundCommands(listener, max), ends };
}

async function fetchStatus(port: number): Promise<number | string> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/`);
    return response.status;
  } catch (error) {
    return String(error);
  }
}

const textOf = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((part) => part.text ?? "").join("");

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("run_command with background: true", () => {
  it("returns once a server listens, names its port, and keeps it running until stopped", async () => {
    const workspace = makeWorkspace();
    const { commands, ends } = registry();
    cleanup = () => commands.stopAll("quit");
    const port = await freePort();
    const { details, text } = await runTool(
      { workspaceRoot: workspace, background: { commands, readinessMs: 20_000 } },
      { command: `python3 -m http.server ${port} --bind 127.0.0.1`, background: true } as never,
    );
    expect(details.status).toBe("background");
    expect(details.ports).toEqual([port]);
    expect(text).toContain(`runs in the background with id "call-1"`);
    expect(text).toContain(`port ${port}`);
    expect(await fetchStatus(port)).toBe(200);

    // The request it served shows up in its output.
    const output = createCommandOutputTool(commands);
    const seen = await vi.waitUntil(
      async () => {
        const text = textOf(
          await output.execute("o", { id: "call-1" }, undefined, undefined, undefined as never),
        );
        return text.includes('"GET / HTTP/1.1" 200') && text;
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(seen).toContain("It is still running.");

    const stopped = await commands.stop("call-1", "person");
    expect(stopped).toMatchObject({ status: "stopped", stoppedBy: "person", ports: [] });
    expect(await fetchStatus(port)).not.toBe(200);
    expect(ends).toEqual([{ id: "call-1", state: expect.objectContaining({ stoppedBy: "person" }) }]);
    const after = textOf(
      await output.execute("o", { id: "call-1" }, undefined, undefined, undefined as never),
    );
    expect(after).toContain("It was stopped by the user");
  });

  it("gives an ordinary result to a command that ends within the window", async () => {
    const { commands } = registry();
    const { details, text } = await runTool(
      { workspaceRoot: makeWorkspace(), background: { commands, readinessMs: 20_000 } },
      { command: "echo built; exit 3", background: true } as never,
    );
    expect(details.status).toBe("failed");
    expect(details.exitCode).toBe(3);
    expect(text).toContain("built");
    expect(commands.has("call-1")).toBe(false);
  });

  it("returns after the readiness window with what it printed so far", async () => {
    const { commands } = registry();
    cleanup = () => commands.stopAll("quit");
    const seconds = uniqueSeconds(300);
    const { details, text } = await runTool(
      { workspaceRoot: makeWorkspace(), background: { commands, readinessMs: 500 } },
      { command: `echo watching; sleep ${seconds}`, background: true } as never,
    );
    expect(details.status).toBe("background");
    expect(text).toContain("watching");
    expect(liveSleeps(seconds)).toHaveLength(1);
  });

  it("stop_command ends the whole tree, and the agent sees it stopped", async () => {
    const { commands, ends } = registry();
    cleanup = () => commands.stopAll("quit");
    const seconds = uniqueSeconds(301);
    await runTool({ workspaceRoot: makeWorkspace(), background: { commands, readinessMs: 300 } }, {
      command: `sleep ${seconds} & sleep ${seconds}; wait`,
      background: true,
    } as never);
    expect(liveSleeps(seconds)).toHaveLength(2);
    const stop = createStopCommandTool(commands);
    const result = await stop.execute("s", { id: "call-1" }, undefined, undefined, undefined as never);
    expect(textOf(result)).toContain("It was stopped by you (stop_command)");
    expect(liveSleeps(seconds)).toEqual([]);
    expect(ends[0]?.state).toMatchObject({ status: "stopped", stoppedBy: "agent" });
  });

  it("ends a command at the cap, and says the cap stopped it", async () => {
    const { commands, ends } = registry();
    const seconds = uniqueSeconds(302);
    await runTool(
      { workspaceRoot: makeWorkspace(), background: { commands, readinessMs: 200, capSeconds: 1 } },
      { command: `sleep ${seconds}`, background: true } as never,
    );
    expect(await waitFor(() => ends.length === 1, 10_000)).toBe(true);
    expect(ends[0]?.state).toMatchObject({ status: "stopped", stoppedBy: "cap" });
    expect(liveSleeps(seconds)).toEqual([]);
  });

  it("moves a running foreground command to the background when the person asks, past its timeout", async () => {
    const { commands, ends } = registry();
    cleanup = () => commands.stopAll("quit");
    const seconds = uniqueSeconds(304);
    const options = { workspaceRoot: makeWorkspace(), background: { commands, capSeconds: 60 } };
    const running = runTool(options, { command: `echo up; sleep ${seconds}`, timeout: 2 });
    expect(await waitFor(() => liveSleeps(seconds).length === 1, 5_000)).toBe(true);
    commands.keepRunning("call-1");
    const { details, text } = await running;
    expect(details.status).toBe("background");
    expect(details.timeoutSeconds).toBe(60);
    expect(text).toContain("up");
    // Well past its own 2 s timeout it still runs; the cap (60 s) is what ends it now.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(liveSleeps(seconds)).toHaveLength(1);
    expect(ends).toEqual([]);
    expect(() => commands.keepRunning("call-1")).toThrow(/not running in the foreground/);
  });

  it("refuses one more than the most a chat may run, with what to do", async () => {
    const { commands } = registry(1);
    cleanup = () => commands.stopAll("quit");
    const options = { workspaceRoot: makeWorkspace(), background: { commands, readinessMs: 200 } };
    const seconds = uniqueSeconds(303);
    expect(
      (await runTool(options, { command: `sleep ${seconds}`, background: true } as never)).details.status,
    ).toBe("background");
    const second = await runTool(options, { command: "echo no", background: true } as never);
    expect(second.details.status).toBe("refused");
    expect(second.text).toContain("Stop one (stop_command with its id)");
  });

  it("is refused where the host keeps no background commands", async () => {
    const { details, text } = await runTool({ workspaceRoot: makeWorkspace() }, {
      command: "echo hi",
      background: true,
    } as never);
    expect(details.status).toBe("refused");
    expect(text).toContain("without background: true");
  });

  it("command_output names the commands there are when the id is wrong", async () => {
    const { commands } = registry();
    const output = createCommandOutputTool(commands);
    await expect(
      output.execute("o", { id: "nope" }, undefined, undefined, undefined as never),
    ).rejects.toThrow(/No background command of this chat has the id "nope"\. This chat has none\./);
  });
});
