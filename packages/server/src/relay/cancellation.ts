/**
 * Ends the work of a request whose client went away: the upstream call in flight and any wait for the client's
 * socket to drain. An AbortController would do, but each one builds an EventTarget and every listener a wrapper;
 * on the relay's hot path, one per request, that showed up in the profile. A request has at most two listeners.
 */
export class Cancellation {
  private cancelled = false;
  private listeners: Array<() => void> = [];

  get aborted(): boolean {
    return this.cancelled;
  }

  abort(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  /** Calls `listener` once on abort (at once if already aborted); returns the function that removes it. */
  onAbort(listener: () => void): () => void {
    if (this.cancelled) {
      listener();
      return () => {};
    }
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index !== -1) this.listeners.splice(index, 1);
    };
  }
}

/** Resolves when `socket` can take more, rejects when the request is cancelled first. */
export function drained(socket: NodeJS.WritableStream, cancellation: Cancellation): Promise<void> {
  return new Promise((resolve, reject) => {
    const stopListening = cancellation.onAbort(() => {
      socket.removeListener('drain', onDrain);
      reject(new Error('client disconnected'));
    });
    const onDrain = () => {
      stopListening();
      resolve();
    };
    socket.once('drain', onDrain);
  });
}
