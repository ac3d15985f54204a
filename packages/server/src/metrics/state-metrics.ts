import type { AppContext } from '../context.js';
import { writeFamily } from './exposition.js';

/**
 * Everything read at scrape time instead of counted per request: process memory and uptime, the caches' own
 * counts, the database pool, and what waits to be written (usage logs, quota changes). Nothing here touches the
 * database or Redis.
 */
export function writeStateMetrics(out: string[], ctx: AppContext): void {
  const memory = process.memoryUsage();
  writeFamily(out, 'process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes', [['', memory.rss]]);
  writeFamily(out, 'nodejs_heap_size_total_bytes', 'gauge', 'V8 heap size in bytes', [['', memory.heapTotal]]);
  writeFamily(out, 'nodejs_heap_size_used_bytes', 'gauge', 'V8 heap used in bytes', [['', memory.heapUsed]]);
  writeFamily(out, 'process_start_time_seconds', 'gauge', 'Start of the process since the Unix epoch in seconds', [
    ['', Math.round(Date.now() / 1000 - process.uptime())],
  ]);
  writeFamily(out, 'gateway_uptime_seconds', 'gauge', 'Seconds since the process started', [['', process.uptime()]]);

  const lookups = ctx.authCache.lookups;
  writeFamily(
    out,
    'gateway_auth_cache_lookups_total',
    'counter',
    'API token and user lookups answered from memory (hit) or from the database (miss)',
    [
      ['cache="token",result="hit"', lookups.tokenHits],
      ['cache="token",result="miss"', lookups.tokenMisses],
      ['cache="user",result="hit"', lookups.userHits],
      ['cache="user",result="miss"', lookups.userMisses],
    ],
  );
  const held = ctx.authCache.size();
  writeFamily(out, 'gateway_auth_cache_entries', 'gauge', 'API tokens and users held in memory', [
    ['cache="token"', held.tokens],
    ['cache="user"', held.users],
  ]);
  writeFamily(out, 'gateway_channel_cache_channels', 'gauge', 'Channels held in memory (all of them)', [
    ['', ctx.channelCache.size],
  ]);
  writeFamily(out, 'gateway_channel_cache_reloads_total', 'counter', 'Reloads of the channel cache from the database', [
    ['', ctx.channelCache.reloads],
  ]);

  const pool = ctx.db.pool?.();
  if (pool) {
    writeFamily(out, 'gateway_db_pool_connections', 'gauge', 'Database connections open in the pool, by state', [
      ['state="idle"', pool.idle],
      ['state="busy"', pool.total - pool.idle],
    ]);
    writeFamily(out, 'gateway_db_pool_waiting_queries', 'gauge', 'Queries waiting for a free database connection', [
      ['', pool.waiting],
    ]);
  }

  writeFamily(out, 'gateway_usage_log_queue_rows', 'gauge', 'Usage-log rows waiting for the next batch insert', [
    ['', ctx.logWriter.pending()],
  ]);
  const health = ctx.redis?.health;
  if (health) {
    writeFamily(out, 'gateway_redis_up', 'gauge', 'Whether Redis answers (0: limits, sessions and balances local)', [
      ['', health.up ? 1 : 0],
    ]);
    writeFamily(out, 'gateway_redis_outages_total', 'counter', 'Times Redis stopped answering in time', [
      ['', health.outages],
    ]);
    writeFamily(out, 'gateway_redis_fallbacks_total', 'counter', 'Answers given from this node alone for Redis', [
      ['', health.fallbacks],
    ]);
  }
  const pending = ctx.ledger.pendingWrites();
  writeFamily(
    out,
    'gateway_ledger_pending_balances',
    'gauge',
    'Quota balances with changes (open reservations included) waiting for the next ledger flush',
    [
      ['kind="user"', pending.users],
      ['kind="token"', pending.tokens],
      ['kind="channel"', pending.channels],
    ],
  );
}
