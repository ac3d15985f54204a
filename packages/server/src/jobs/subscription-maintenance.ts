import type { AppContext } from '../context.js';
import { backgroundError } from '../lib/background.js';
import { maintainSubscriptions } from '../services/subscriptions/lifecycle.js';
import { everyOnceAcrossNodes } from './leased-job.js';

const MINUTE_MS = 60_000;

/**
 * Every minute, on one master node per run (leased-job.ts): subscription periods whose boundary passed start again
 * and subscriptions past their end expire (their users get their group back). Each change is conditional, so a
 * node that reads a due period at request time (billing/ledger.ts) and this job never both grant it.
 */
export function startSubscriptionMaintenance(ctx: AppContext): () => void {
  if (ctx.config.nodeType !== 'master') return () => {};
  return everyOnceAcrossNodes(
    ctx.repos.jobLeases,
    'subscription-maintenance',
    MINUTE_MS,
    () => maintainSubscriptions(ctx),
    (error) => backgroundError('subscription maintenance failed', error),
  );
}
