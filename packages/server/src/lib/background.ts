/** Background work has no request to log to: one JSON line on stderr, like the server's own log lines. */
export function backgroundError(message: string, error: unknown): void {
  console.error(JSON.stringify({ level: 50, time: Date.now(), msg: message, err: String(error) }));
}

/**
 * Runs a background job every `ms` on an unref'd timer (it never keeps the process alive), skipping a tick while
 * the previous run is still going, so a slow database never piles runs up. A run that fails goes to `onError`; the
 * next tick tries again. Returns the function that stops the timer.
 */
export function everyWithoutOverlap(
  ms: number,
  job: () => Promise<unknown>,
  onError: (error: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    job()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, ms);
  timer.unref();
  return () => clearInterval(timer);
}
