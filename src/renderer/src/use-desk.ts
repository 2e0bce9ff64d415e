import { useEffect, useReducer } from "react";
import type { DeskClient } from "./client/desk-client";
import { syncHostClock } from "./lib/host-clock";
import { type DeskAction, type DeskView, deskReducer, initialView } from "./state/desk-reducer";

/** Applies a frame's worth of actions in order: one state change, one render. */
function reduceAll(view: DeskView, actions: DeskAction[]): DeskView {
  return actions.reduce(deskReducer, view);
}

/** When a hidden page gets no animation frames, a timer still flushes, more slowly. */
const FALLBACK_FLUSH_MS = 250;
/** Past this many queued actions, flush at once rather than hold them. */
const MAX_QUEUED = 2000;

/**
 * Follows the host: every event goes through the reducer, and on each (re)connection the whole state is
 * fetched again, so nothing missed while away is lost.
 *
 * Events are queued and applied once per animation frame: a command printing as fast as it can, or a
 * model streaming many small deltas, costs one render a frame, not one per event. Order is kept, the
 * snapshot fetched on connecting included, since it goes through the same queue.
 */
export function useDesk(client: DeskClient): DeskView {
  const [view, dispatch] = useReducer(reduceAll, initialView);
  useEffect(() => {
    let queue: DeskAction[] = [];
    let frame: number | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const hasFrames = typeof requestAnimationFrame === "function";

    const flush = () => {
      if (frame !== null) cancelAnimationFrame(frame);
      if (timer !== null) clearTimeout(timer);
      frame = null;
      timer = null;
      if (queue.length === 0) return;
      const actions = queue;
      queue = [];
      dispatch(actions);
    };
    const enqueue = (action: DeskAction) => {
      // Measured at arrival, not when the frame applies it: the frame may come a while later.
      if (action.type === "snapshot") syncHostClock(action.state.hostTime);
      queue.push(action);
      if (queue.length >= MAX_QUEUED) return flush();
      if (hasFrames && frame === null) frame = requestAnimationFrame(flush);
      if (timer === null) timer = setTimeout(flush, hasFrames ? FALLBACK_FLUSH_MS : 16);
    };

    const stopEvents = client.api.onHostEvent(enqueue);
    const stopConnection = client.onConnection((status) => {
      enqueue({ type: "connection", status });
      if (status.kind !== "connected") return;
      client.api.getState().then(
        (state) => enqueue({ type: "snapshot", state }),
        (error: Error) =>
          enqueue({ type: "connection", status: { kind: "disconnected", reason: error.message } }),
      );
    });
    return () => {
      stopEvents();
      stopConnection();
      if (frame !== null) cancelAnimationFrame(frame);
      if (timer !== null) clearTimeout(timer);
      queue = [];
    };
  }, [client]);
  return view;
}
