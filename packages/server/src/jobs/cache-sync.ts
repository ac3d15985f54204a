import type { AppContext } from '../context.js';
import { backgroundError, everyWithoutOverlap } from '../lib/background.js';

/**
 * Every SYNC_FREQUENCY seconds each node reads options and channels from the database again, as the family's nodes
 * do. Without Redis this is how a change made on another node reaches this one; with Redis (which announces every
 * change at once) it mends a missed message.
 */
export function startCacheSync(ctx: AppContext, seconds: number): () => void {
  return everyWithoutOverlap(
    seconds * 1000,
    () => Promise.all([ctx.options.load(), ctx.channelCache.reload()]),
    (error) => backgroundError('cache sync failed', error),
  );
}
