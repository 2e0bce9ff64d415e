import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../../src/renderer/src/App";
import {
  BackgroundPanel,
  backgroundCommands,
} from "../../src/renderer/src/features/background/BackgroundPanel";
import { CommandCard } from "../../src/renderer/src/features/commands/CommandCard";
import type { BackgroundState, CommandView } from "../../src/shared/commands";
import { fakeApi, hostState, pendingCommand, runningCommand, session } from "./fixtures";

afterEach(cleanup);

const running: BackgroundState = {
  status: "running",
  ports: [5173],
  capSeconds: 14_400,
  startedAt: Date.now(),
};

function backgroundCommand(
  id: string,
  state: BackgroundState,
  overrides: Partial<CommandView> = {},
): CommandView {
  return runningCommand({
    id,
    phase: "background",
    command: `npm run dev -- ${id}`,
    output: "ready in 300 ms\n  Local: http://127.0.0.1:5173/",
    totalLines: 2,
    background: state,
    ...overrides,
  });
}

describe("background commands in the UI", () => {
  it("a pending card offers the background, says how long it may run, and sends the person's switch", () => {
    const api = fakeApi();
    render(<CommandCard command={pendingCommand({ backgroundCapSeconds: 14_400 })} api={api} />);
    const card = within(screen.getByTestId("command-card"));
    const toggle = card.getByTestId("background-toggle") as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    expect(screen.getByTestId("command-card").textContent).toContain("for 4 hours at most");
    fireEvent.click(card.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", background: true },
    });
  });

  it("a command the agent asked to run in the background can be switched to the foreground", () => {
    const api = fakeApi();
    render(<CommandCard command={pendingCommand({ runInBackground: true })} api={api} />);
    const card = within(screen.getByTestId("command-card"));
    fireEvent.click(card.getByTestId("background-toggle"));
    fireEvent.click(card.getByTestId("approve-button"));
    expect(api.decide).toHaveBeenCalledWith({
      approvalId: "approval-1",
      decision: { kind: "approve", background: false },
    });
  });

  it("a running card moves its command to the background with Keep running", () => {
    const api = fakeApi();
    render(<CommandCard command={runningCommand()} api={api} />);
    fireEvent.click(within(screen.getByTestId("command-card")).getByTestId("keep-running-button"));
    expect(api.keepRunning).toHaveBeenCalledWith({ commandId: "call-1" });
  });

  it("the panel lists running commands first, with ports as links, output and Stop", () => {
    const api = fakeApi();
    const commands = backgroundCommands(
      session({
        commands: {
          old: backgroundCommand("old", {
            ...running,
            status: "exited",
            exitCode: 0,
            ports: [],
            endedAt: Date.now(),
          }),
          web: backgroundCommand("web", running),
          plain: runningCommand({ id: "plain" }),
        },
      }),
    );
    expect(commands.map((command) => command.id)).toEqual(["web", "old"]);
    render(<BackgroundPanel commands={commands} api={api} onClose={() => {}} />);
    const items = screen.getAllByTestId("background-item");
    expect(items.map((item) => item.dataset.status)).toEqual(["running", "exited"]);
    const web = within(items[0] as HTMLElement);
    const port = web.getByTestId("background-port") as HTMLAnchorElement;
    expect(port.textContent).toBe("5173");
    expect(port.href).toBe("http://127.0.0.1:5173/");
    expect(port.target).toBe("_blank");
    expect(web.getByTestId("background-output").textContent).toContain("ready in 300 ms");
    fireEvent.click(web.getByTestId("background-stop-button"));
    expect(api.cancelCommand).toHaveBeenCalledWith({ commandId: "web" });
    expect(within(items[1] as HTMLElement).queryByTestId("background-stop-button")).toBeNull();
    expect(items[1]?.textContent).toContain("exited with code 0");
  });

  it("the header's button shows how many run and opens the panel; it is absent with none", async () => {
    const client = (commands: Record<string, CommandView>) => ({
      api: fakeApi({
        getState: async () => hostState({ session: session({ commands }) }),
      }),
      onConnection: (listener: (status: { kind: "connected" }) => void) => {
        listener({ kind: "connected" });
        return () => {};
      },
    });
    const { unmount } = render(<App client={client({})} />);
    return screen.findByTestId("workspace-path").then(async () => {
      expect(screen.queryByTestId("background-panel-button")).toBeNull();
      unmount();
      render(<App client={client({ web: backgroundCommand("web", running) })} />);
      const button = await screen.findByTestId("background-panel-button");
      expect(button.textContent).toContain("1");
      expect(screen.queryByTestId("background-panel")).toBeNull();
      fireEvent.click(button);
      expect(within(screen.getByTestId("background-panel")).getAllByTestId("background-item")).toHaveLength(
        1,
      );
    });
  });
});
