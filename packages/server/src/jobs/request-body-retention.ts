import type { AppContext } from '../context.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { backgroundError } from '../lib/background.js';
import { everyOnceAcrossNodes } from './leased-job.js';

const HOUR_MS = 3_600_000;

/**
 * Kept request bodies older than LogBodiesRetentionDays are removed (0: kept as long as their usage log, which an
 * admin clears by time). Bodies are far larger than log rows, so they usually deserve a shorter life.
 */
export async function pruneRequestBodies(ctx: AppContext, now = nowSeconds()): Promise<number> {
  const days = ctx.options.number('LogBodiesRetentionDays');
  if (!(days > 0)) return 0;
  return ctx.repos.requestBodies.deleteBefore(now - days * 86_400);
}

/** Hourly, on one master node per run (leased-job.ts). */
export function startRequestBodyRetention(ctx: AppContext): () => void {
  if (ctx.config.nodeType !== 'master') return () => {};
  return everyOnceAcrossNodes(
    ctx.repos.jobLeases,
    'request-body-retention',
    HOUR_MS,
    () => pruneRequestBodies(ctx),
    (error) => backgroundError('request body retention failed', error),
  );
}
