import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left of a lockout (the 30-second wait before another code or reset mail). `start()` begins it; the
 * value ticks down once a second to 0.
 */
export function useCountdown(seconds: number) {
  const [remaining, setRemaining] = useState(0);
  useEffect(() => {
    if (remaining <= 0) return;
    const timer = window.setTimeout(() => setRemaining((value) => value - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining]);
  const start = useCallback(() => setRemaining(seconds), [seconds]);
  return { remaining, running: remaining > 0, start };
}
