import { Role } from '@gateway/shared';
import { memoryRateLimiter, redisRateLimiter } from './auth/rate-limiter.js';
import { databaseSessionStore, redisSessionStore } from './auth/session-store.js';
import { OptionsStore } from './cache/options-store.js';
import { connectRedis } from './cache/redis.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { createRepositories } from './db/repositories.js';
import { ChannelTestRunner } from './services/channel-test-all.js';
import { ChannelWriter } from './services/channel-writer.js';
import { SecretBox } from './services/secret-box.js';

/** Opens the database (migrating it), Redis when configured, and loads options: everything but HTTP. */
export async function createContext(config: Config): Promise<AppContext> {
  const db = openDatabase(config.database);
  try {
    if (config.nodeType === 'master') await migrateToLatest(db);
    const repos = createRepositories(db);
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
    const channelWriter = new ChannelWriter(
      db.kysely,
      repos.channels,
      repos.abilities,
      new SecretBox(config.cryptoSecret),
    );
    return {
      config,
      db,
      repos,
      options,
      redis,
      sessions: redis ? redisSessionStore(redis) : databaseSessionStore(repos.sessions),
      limiter: redis ? redisRateLimiter(redis) : memoryRateLimiter(),
      channelWriter,
      channelTests: new ChannelTestRunner({ writer: channelWriter, channels: repos.channels, options }),
      setup: { done },
      startTime: Math.floor(Date.now() / 1000),
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.redis?.close();
  await ctx.db.close();
}
