import { Role } from '@gateway/shared';
import { failoverSessionStore } from './auth/failover-session-store.js';
import { failoverRateLimiter, memoryRateLimiter } from './auth/rate-limiter.js';
import { databaseSessionStore, redisSessionStore } from './auth/session-store.js';
import { resolveSetupToken } from './auth/setup-token.js';
import { QuotaLedger } from './billing/ledger.js';
import { LogWriter } from './billing/log-writer.js';
import { QuotaExporter } from './billing/quota-exporter.js';
import { SharedBalances } from './billing/shared-balances.js';
import { AuthCache } from './cache/auth-cache.js';
import { ChannelCache } from './cache/channel-cache.js';
import { OptionsStore } from './cache/options-store.js';
import { connectRedis } from './cache/redis.js';
import { failoverWindowLog, memoryWindowLog } from './cache/sliding-window-log.js';
import type { Config } from './config.js';
import type { AppContext, UsageLogSink } from './context.js';
import { type Db, openDatabase, openLogDatabase } from './db/connection.js';
import { migrateLogDatabase } from './db/log-migrate.js';
import { LogTransfer } from './db/log-transfer.js';
import { migrateToLatest } from './db/migrate.js';
import { createBooksRepo } from './db/repos/books.js';
import { createRepositories } from './db/repositories.js';
import { backgroundError } from './lib/background.js';
import { GatewayMetrics } from './metrics/gateway-metrics.js';
import { SharedModelHealth } from './metrics/model-health-share.js';
import { createRequestLimiter } from './relay/admission/limits/create-limiter.js';
import { ModelRequestLimiter } from './relay/admission/limits/model-request-limit.js';
import { ChannelAffinity } from './relay/affinity/channel-affinity.js';
import { ResponseOwners } from './relay/affinity/response-owners.js';
import { ChannelTestRunner } from './relay/probes/channel-test-all.js';
import { ChannelWriter } from './services/channels/channel-writer.js';
import { channelDisabledNotifier } from './services/notifications/channel-disabled-notice.js';
import { NotifyLimit } from './services/notifications/notify-limit.js';
import { SecretBox } from './services/security/secret-box.js';
import { activeForLedger } from './services/subscriptions/lifecycle.js';

/** Opens the database (migrating it), Redis when configured, and loads options: everything but HTTP. */
export async function createContext(config: Config): Promise<AppContext> {
  const db = await openDatabase(config.database);
  let logDb: Db | null = null;
  try {
    if (config.nodeType === 'master') await migrateToLatest(db);
    if (config.logDatabase) {
      const opened = await openLogDatabase(config.logDatabase);
      logDb = opened.raw;
      if (config.nodeType === 'master') await migrateLogDatabase(opened.raw);
      logDb = await opened.withReadings();
    }
    const repos = createRepositories(db, logDb ?? db);
    const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
    const options = new OptionsStore(repos.options, redis);
    await options.load();
    await options.startSync();
    // A database imported from the family has a root user but no setups row: that counts as set up.
    let done = await repos.setups.isDone();
    if (!done && (await repos.users.existsWithRoleAtLeast(Role.Root))) {
      await repos.setups.record(config.version);
      done = true;
    }
    const setupToken = done ? null : resolveSetupToken(config.setup);
    const channelWriter = new ChannelWriter(db, repos.channels, repos.abilities, new SecretBox(config.cryptoSecret));
    channelWriter.onAutoDisabled(
      channelDisabledNotifier(
        options,
        repos.users,
        new NotifyLimit(config.notifyLimit.count, config.notifyLimit.windowMinutes * 60_000),
        (error) => backgroundError('channel-disabled notice failed', error),
      ),
    );
    const channelCache = new ChannelCache(repos.channels, channelWriter, redis);
    await channelCache.start();
    const authCache = new AuthCache(repos.tokens, repos.users, redis, config.syncFrequencySeconds);
    await authCache.start();
    const ledger = new QuotaLedger(createBooksRepo(db), (error, dropped) =>
      backgroundError(
        `usage and quota flush failed; will retry${dropped ? ` (dropped the ${dropped} oldest entries, charges given back)` : ''}`,
        error,
      ),
    );
    if (redis) {
      const namespace = SharedBalances.namespaceFor(config.database);
      ledger.shareThrough(
        new SharedBalances(redis.client, redis.health, namespace, ledger.side(), config.nodeHeartbeatTtlMs),
      );
      // Announcements missed while Redis was away: read options and channels again, forget cached keys and users.
      redis.health.onUp(() => {
        void Promise.all([options.load(), channelCache.reload()]).catch((error) =>
          backgroundError('reload after Redis came back failed', error),
        );
        authCache.clear();
      });
    }
    ledger.start(config.batchUpdateIntervalMs);
    // With a separate log database the main database's `logs` is an outbox, emptied into it on a timer.
    const logTransfer = logDb
      ? new LogTransfer(db, logDb, (error) =>
          backgroundError('moving usage logs to LOG_SQL_DSN failed; will retry', error),
        )
      : null;
    logTransfer?.start(config.batchUpdateIntervalMs);
    // Usage-log rows ride with the charges in the ledger's batches (one transaction each), so the two agree.
    const logWriter: UsageLogSink = {
      append: (row) => ledger.appendLog(row),
      flush: async () => {
        await ledger.flush();
        // A reader sees their call at once with a separate log database too. A failed move is reported and left to
        // the timer: the read that asked may still answer from what the log database has.
        await logTransfer
          ?.run()
          .catch((error) => backgroundError('moving usage logs to LOG_SQL_DSN failed; will retry', error));
      },
      pending: () => ledger.pendingEntries(),
    };
    // Bodies are large: smaller batches, and far fewer rows held while the database is away.
    const bodyWriter = new LogWriter(
      repos.requestBodies,
      (error, dropped) =>
        backgroundError(`request body write failed; will retry${dropped ? ` (dropped ${dropped} oldest)` : ''}`, error),
      50,
      2_000,
    );
    bodyWriter.start(config.batchUpdateIntervalMs);
    const quotaExporter = new QuotaExporter(repos.quotaData, options, (error) =>
      backgroundError('dashboard data export failed; will retry', error),
    );
    quotaExporter.start();
    const metrics = new GatewayMetrics();
    const ctx: AppContext = {
      config,
      db,
      logDb,
      logTransfer,
      repos,
      options,
      redis,
      sessions: redis
        ? failoverSessionStore(redis, redisSessionStore(redis), databaseSessionStore(repos.sessions))
        : databaseSessionStore(repos.sessions),
      limiter: redis ? failoverRateLimiter(redis) : memoryRateLimiter(),
      channelWriter,
      channelTests: new ChannelTestRunner({ writer: channelWriter, channels: repos.channels, options }),
      channelCache,
      authCache,
      ledger,
      logWriter,
      bodyWriter,
      quotaExporter,
      modelLimiter: new ModelRequestLimiter(options, redis ? failoverWindowLog(redis) : memoryWindowLog()),
      limits: createRequestLimiter(config, db, options, redis),
      channelAffinity: new ChannelAffinity(options, redis),
      responseOwners: new ResponseOwners(options, redis),
      metrics,
      modelHealth: new SharedModelHealth(metrics.relay.health, redis),
      setup: { done, token: setupToken },
      startTime: Math.floor(Date.now() / 1000),
    };
    // Subscriptions pay before (or after) the wallet: the ledger reads them as it reads balances.
    ledger.readSubscriptionsFrom((userId) => activeForLedger(ctx, userId));
    return ctx;
  } catch (error) {
    await logDb?.close();
    await db.close();
    throw error;
  }
}

/** Writes what is still buffered (quota changes, logs), then closes connections. */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.ledger.stop();
  // After the ledger's last write: what it wrote to the outbox is moved before the connections close.
  await ctx.logTransfer?.stop().catch((error) => backgroundError('moving usage logs at shutdown failed', error));
  await ctx.limits.budgets.stop();
  await ctx.bodyWriter.stop();
  await ctx.quotaExporter.stop();
  await ctx.redis?.close();
  await ctx.logDb?.close();
  await ctx.db.close();
}
