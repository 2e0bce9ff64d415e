import { useCallback, useEffect, useReducer, useRef } from "react";
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

/** The view, and the way to show another chat in full. */
export interface DeskFollow {
  /** What the UI shows. */
  view: DeskView;
  /** Shows this chat: its state is asked for, and the view follows it from then on. */
  show(chatId: string): void;
}

/**
 * Follows the host: every event goes through the reducer, and on each (re)connection, on a gap in the
 * events' numbers and to show another chat, the state is fetched again, so nothing missed is lost.
 *
 * Events are queued and applied once per animation frame: a command printing as fast as it can, or a
 * model streaming many small deltas, costs one render a frame, not one per event. Order is kept, the
 * snapshot fetched on connecting included, since it goes through the same queue.
 */
export function useDesk(client: DeskClient): DeskFollow {
  const [view, dispatch] = useReducer(reduceAll, initialView);
  /** The chat shown (asked for), once known: the state fetched holds it. */
  const shown = useRef<string | undefined>(undefined);
  /** Asks for the shown chat's state; set once connected. */
  const fetchState = useRef<() => void>(() => {});
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
      if (action.type === "state") syncHostClock(action.state.hostTime);
      queue.push(action);
      if (queue.length >= MAX_QUEUED) return flush();
      if (hasFrames && frame === null) frame = requestAnimationFrame(flush);
      if (timer === null) timer = setTimeout(flush, hasFrames ? FALLBACK_FLUSH_MS : 16);
    };

    const getState = () =>
      client.api.getState(shown.current ? { chatId: shown.current } : undefined).then(
        (state) => {
          shown.current = state.chatId ?? undefined;
          enqueue({ type: "state", state });
        },
        (error: Error) =>
          enqueue({ type: "connection", status: { kind: "disconnected", reason: error.message } }),
      );
    fetchState.current = () => void getState();
    const stopEvents = client.api.onHostEvent(enqueue);
    const stopConnection = client.onConnection((status) => {
      enqueue({ type: "connection", status });
      if (status.kind === "connected") void getState();
    });
    return () => {
      fetchState.current = () => {};
      stopEvents();
      stopConnection();
      if (frame !== null) cancelAnimationFrame(frame);
      if (timer !== null) clearTimeout(timer);
      queue = [];
    };
  }, [client]);
  // Missed something, or the shown chat closed: ask again (the host answers with the chat, else the newest).
  useEffect(() => {
    if (view.stale) fetchState.current();
  }, [view.stale]);
  const show = useCallback((chatId: string) => {
    shown.current = chatId;
    fetchState.current();
  }, []);
  return { view, show };
}
