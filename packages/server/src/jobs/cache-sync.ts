import type { AppContext } from '../context.js';

/**
 * Every SYNC_FREQUENCY seconds each node reads options and channels from the database again, as the family's nodes
 * do. Without Redis this is how a change made on another node reaches this one; with Redis (which announces every
 * change at once) it mends a missed message. A pass never overlaps the previous one.
 */
export function startCacheSync(ctx: AppContext, seconds: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    Promise.all([ctx.options.load(), ctx.channelCache.reload()])
      .catch((error: unknown) => {
        console.error(JSON.stringify({ level: 50, time: Date.now(), msg: 'cache sync failed', err: String(error) }));
      })
      .finally(() => {
        running = false;
      });
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
