import { useCallback, useState } from "react";
import { reasonOf } from "./format";

/** A call to the host started by the person, with whether it is under way and how it failed. */
export interface Action {
  /** Starts the call; `explain` turns the host's reason into the sentence shown. */
  run(call: () => Promise<unknown>, explain?: (reason: string) => string): Promise<boolean>;
  /** Whether a call is under way. */
  busy: boolean;
  /** What went wrong with the last call, or null. */
  error: string | null;
}

/** Tracks one kind of call a control makes, so the control can show it is busy or why it failed. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (call: () => Promise<unknown>, explain?: (reason: string) => string) => {
    setBusy(true);
    setError(null);
    try {
      await call();
      return true;
    } catch (e) {
      setError(explain ? explain(reasonOf(e)) : reasonOf(e));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error };
}
