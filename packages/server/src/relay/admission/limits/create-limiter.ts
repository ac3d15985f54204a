import { SharedBalances } from '../../../billing/shared-balances.js';
import type { OptionsStore } from '../../../cache/options-store.js';
import type { RedisPair } from '../../../cache/redis.js';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/connection.js';
import { createTokensRepo } from '../../../db/repos/tokens.js';
import { backgroundError } from '../../../lib/background.js';
import { BudgetLedger } from './budget-ledger.js';
import { failoverCounters } from './failover-counters.js';
import { memoryCounters } from './memory-counters.js';
import { redisCounters } from './redis-counters.js';
import { RequestLimiter } from './request-limiter.js';

/**
 * The request limiter of a node: counters in memory, or in Redis when nodes share it (keyed by the database like
 * the shared balances, so installations or test servers sharing one Redis never mix; the node's own memory while
 * Redis is down or slow), and the budget ledger flushing every BATCH_UPDATE_INTERVAL. Stop it with
 * `limits.budgets.stop()` before the database closes.
 */
export function createRequestLimiter(config: Config, db: Db, options: OptionsStore, redis: RedisPair | null) {
  const counters = redis
    ? failoverCounters(
        redisCounters(redis.client, (error) => redis.health.failed(error)),
        memoryCounters,
        redis.health,
      )
    : memoryCounters();
  const budgets = new BudgetLedger(createTokensRepo(db), (error) =>
    backgroundError('budget flush failed; will retry', error),
  );
  budgets.start(config.batchUpdateIntervalMs);
  const prefix = `gateway:${SharedBalances.namespaceFor(config.database)}:limits`;
  return new RequestLimiter(counters, budgets, options, prefix);
}
