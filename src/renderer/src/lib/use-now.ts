import { useEffect, useState } from "react";
import { hostNow } from "./host-clock";

/** The current time by the host's clock (see host-clock.ts), refreshed every second. */
export function useNow(): number {
  const [now, setNow] = useState(hostNow);
  useEffect(() => {
    setNow(hostNow());
    const timer = setInterval(() => setNow(hostNow()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
