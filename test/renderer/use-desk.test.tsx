import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConnectionStatus, DeskClient } from "../../src/renderer/src/client/desk-client";
import { hostNow } from "../../src/renderer/src/lib/host-clock";
import type { DeskView } from "../../src/renderer/src/state/desk-reducer";
import { useDesk } from "../../src/renderer/src/use-desk";
import type { HostEvent } from "../../src/shared/host-events";
import { eventStream, fakeApi, hostState, type LooseEvent, runningCommand, session } from "./fixtures";

afterEach(cleanup);

const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

/** Records every view the hook returns. */
function Probe({ client, views }: { client: DeskClient; views: DeskView[] }) {
  views.push(useDesk(client).view);
  return null;
}

function harness(
  getState = vi.fn(async () => hostState({ session: session({ commands: { "call-1": runningCommand() } }) })),
) {
  let emit: (event: HostEvent) => void = () => {};
  const numbered = eventStream();
  let connect: (status: ConnectionStatus) => void = () => {};
  const client: DeskClient = {
    api: fakeApi({
      getState,
      onHostEvent: (listener) => {
        emit = listener;
        return () => {};
      },
    }),
    onConnection: (listener) => {
      connect = listener;
      listener({ kind: "connecting" });
      return () => {};
    },
  };
  const views: DeskView[] = [];
  render(<Probe client={client} views={views} />);
  return {
    views,
    emit: (event: LooseEvent) => emit(numbered(event)),
    connect: (s: ConnectionStatus) => connect(s),
  };
}

describe("useDesk", () => {
  it("fetches the whole state on connecting and shows it", async () => {
    const getState = vi.fn(async () => hostState());
    const { views, connect } = harness(getState);
    await act(async () => connect({ kind: "connected" }));
    await nextFrame();
    expect(getState).toHaveBeenCalledTimes(1);
    expect(views.at(-1)?.host?.workspace?.name).toBe("repo");
    expect(views.at(-1)?.connection).toEqual({ kind: "connected" });
  });

  it("measures the host's clock from each state it fetches", async () => {
    const offsets = [-60_000, 5_000, -40];
    const { connect } = harness(
      vi.fn(async () => hostState({ hostTime: Date.now() + (offsets.shift() ?? 0) })),
    );
    await act(async () => connect({ kind: "connected" }));
    expect(Math.round((Date.now() - hostNow()) / 1000)).toBe(60);
    await act(async () => connect({ kind: "connected" }));
    expect(Math.round((hostNow() - Date.now()) / 1000)).toBe(5);
    // A state's trip on one machine is not a difference of clocks.
    await act(async () => connect({ kind: "connected" }));
    expect(Math.abs(hostNow() - Date.now())).toBeLessThanOrEqual(1);
  });

  it("applies a flood of output events in one render per frame, ending on the latest tail", async () => {
    const { views, emit, connect } = harness();
    await act(async () => connect({ kind: "connected" }));
    await nextFrame();
    const rendersBefore = views.length;
    act(() => {
      for (let i = 1; i <= 1000; i++) {
        emit({
          type: "command-output",
          id: "call-1",
          output: `line ${i}\n`,
          totalBytes: i * 7,
          totalLines: i,
        });
      }
    });
    expect(views.length).toBe(rendersBefore); // nothing yet: the frame has not come
    await nextFrame();
    expect(views.length).toBeLessThanOrEqual(rendersBefore + 2);
    expect(views.at(-1)?.host?.session?.commands["call-1"]).toMatchObject({
      output: "line 1000\n",
      totalLines: 1000,
    });
  });

  it("keeps streamed deltas in order across a frame", async () => {
    const getState = vi.fn(async () =>
      hostState({
        session: session({
          transcript: [{ kind: "assistant", id: "a1", text: "", thinking: "", streaming: true }],
        }),
      }),
    );
    const { views, emit, connect } = harness(getState);
    await act(async () => connect({ kind: "connected" }));
    await nextFrame();
    act(() => {
      for (const word of ["one ", "two ", "three"]) emit({ type: "assistant-delta", id: "a1", text: word });
    });
    await nextFrame();
    expect(views.at(-1)?.host?.session?.transcript[0]).toMatchObject({ text: "one two three" });
  });

  it("says the host cannot be reached when fetching the state fails", async () => {
    const { views, connect } = harness(vi.fn(() => Promise.reject(new Error("The host is gone."))));
    await act(async () => connect({ kind: "connected" }));
    await nextFrame();
    expect(views.at(-1)?.connection).toEqual({ kind: "disconnected", reason: "The host is gone." });
  });
});
