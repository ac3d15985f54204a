import type { RedisHealth } from './redis-health.js';

/**
 * Runs `shared` (a Redis call) while Redis is up, else `local` (this node's memory); a Redis call that fails or
 * times out marks Redis down and is answered by `local` instead, so the caller never sees the outage.
 */
export function sharedOrLocal<T>(health: RedisHealth, shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
  if (!health.up) {
    health.fellBack();
    return local();
  }
  return shared().catch((error: unknown) => {
    health.failed(error);
    health.fellBack();
    return local();
  });
}
