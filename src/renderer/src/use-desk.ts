import { useEffect, useReducer } from "react";
import type { DeskClient } from "./client/desk-client";
import { type DeskView, deskReducer, initialView } from "./state/desk-reducer";

/**
 * Follows the host: every event goes through the reducer, and on each (re)connection the whole state is
 * fetched again, so nothing missed while away is lost.
 */
export function useDesk(client: DeskClient): DeskView {
  const [view, dispatch] = useReducer(deskReducer, initialView);
  useEffect(() => {
    const stopEvents = client.api.onHostEvent(dispatch);
    const stopConnection = client.onConnection((status) => {
      dispatch({ type: "connection", status });
      if (status.kind !== "connected") return;
      client.api.getState().then(
        (state) => dispatch({ type: "snapshot", state }),
        (error: Error) =>
          dispatch({ type: "connection", status: { kind: "disconnected", reason: error.message } }),
      );
    });
    return () => {
      stopEvents();
      stopConnection();
    };
  }, [client]);
  return view;
}
