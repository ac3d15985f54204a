import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { setupTokenNotice } from './auth/setup-token.js';
import { closeContext, createContext } from './bootstrap.js';
import { loadConfig } from './config.js';
import { redact } from './db/dsn.js';
import { startCacheSync } from './jobs/cache-sync.js';
import { startChannelRecovery } from './jobs/channel-recovery.js';
import { startRequestBodyRetention } from './jobs/request-body-retention.js';
import { startSubscriptionMaintenance } from './jobs/subscription-maintenance.js';
import { startTaskPoller } from './jobs/task-poller.js';
import { startUpstreamModelWatch } from './jobs/upstream-model-watch.js';
import { backgroundError } from './lib/background.js';
import { startModelHealthPush } from './metrics/model-health-share.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageJson = JSON.parse(readFileSync(resolve(here, '../../../package.json'), 'utf8')) as { version: string };

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, { webDist: resolve(here, '../../web/dist'), version: packageJson.version });
  } catch (error) {
    console.error(`Configuration error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  const stopRecovery = startChannelRecovery(ctx, config.channelTestFrequencyMinutes);
  const stopModelWatch = startUpstreamModelWatch(ctx, config.upstreamModelWatchMinutes);
  const stopTaskPoller = startTaskPoller(ctx);
  const stopCacheSync = startCacheSync(ctx, config.syncFrequencySeconds);
  const stopBodyRetention = startRequestBodyRetention(ctx);
  const stopSubscriptions = startSubscriptionMaintenance(ctx);
  const stopHealthPush = startModelHealthPush(ctx.modelHealth, (error) =>
    backgroundError('model health push failed', error),
  );
  for (const warning of config.warnings) app.log.warn(warning);
  const setupToken = ctx.setup.token;
  if (!ctx.setup.done && setupToken?.generated) app.log.warn(setupTokenNotice(setupToken));
  const where = config.database.dialect === 'sqlite' ? config.database.path : redact(JSON.stringify(config.database));
  app.log.info({ database: config.database.dialect, where, redis: Boolean(config.redisUrl) }, 'storage ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    stopRecovery();
    stopModelWatch();
    stopTaskPoller();
    stopCacheSync();
    stopBodyRetention();
    stopSubscriptions();
    stopHealthPush();
    await app.close();
    await closeContext(ctx);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
