import type { RateLimiter } from './auth/rate-limiter.js';
import type { SessionStore } from './auth/session-store.js';
import type { SetupToken } from './auth/setup-token.js';
import type { QuotaLedger } from './billing/ledger.js';
import type { LogWriter } from './billing/log-writer.js';
import type { QuotaExporter } from './billing/quota-exporter.js';
import type { AuthCache } from './cache/auth-cache.js';
import type { ChannelCache } from './cache/channel-cache.js';
import type { OptionsStore } from './cache/options-store.js';
import type { RedisPair } from './cache/redis.js';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import type { LogTransfer } from './db/log-transfer.js';
import type { Repositories } from './db/repositories.js';
import type { NewLog, NewRequestBody } from './db/schema.js';
import type { GatewayMetrics } from './metrics/gateway-metrics.js';
import type { SharedModelHealth } from './metrics/model-health-share.js';
import type { ModelRequestLimiter } from './relay/admission/limits/model-request-limit.js';
import type { RequestLimiter } from './relay/admission/limits/request-limiter.js';
import type { ChannelAffinity } from './relay/affinity/channel-affinity.js';
import type { ResponseOwners } from './relay/affinity/response-owners.js';
import type { ChannelTestRunner } from './relay/probes/channel-test-all.js';
import type { ChannelWriter } from './services/channels/channel-writer.js';

/** Everything a route needs, built once in main (or per test) and handed to each plugin. */
export interface AppContext {
  config: Config;
  db: Db;
  /** The separate log database (LOG_SQL_DSN), or null when the usage logs live in `db`. */
  logDb: Db | null;
  /** Moves usage-log rows from `db`'s outbox to `logDb`; null without a separate log database. */
  logTransfer: LogTransfer | null;
  repos: Repositories;
  options: OptionsStore;
  sessions: SessionStore;
  limiter: RateLimiter;
  redis: RedisPair | null;
  channelWriter: ChannelWriter;
  channelTests: ChannelTestRunner;
  channelCache: ChannelCache;
  authCache: AuthCache;
  ledger: QuotaLedger;
  /** Usage-log rows: written with the ledger's charges, in its batches. */
  logWriter: UsageLogSink;
  /** Kept request and response bodies (relay/admission/body-capture), batched like the usage logs. */
  bodyWriter: LogWriter<NewRequestBody>;
  quotaExporter: QuotaExporter;
  modelLimiter: ModelRequestLimiter;
  /** Per-token, per-user and per-group request limits and token budgets (services/limits). */
  limits: RequestLimiter;
  /** Sticky channels: a conversation's channel and key (relay/affinity), in memory and shared through Redis. */
  channelAffinity: ChannelAffinity;
  /** Stored Responses API responses: their owner and the channel that holds them (relay/affinity). */
  responseOwners: ResponseOwners;
  metrics: GatewayMetrics;
  /** The last hour per model for the pricing page, summed over nodes through Redis (metrics/model-health-share.ts). */
  modelHealth: SharedModelHealth;
  setup: SetupState;
  startTime: number;
}

export interface UsageLogSink {
  append(row: NewLog): void;
  /** Resolves once every row appended before the call is where the log views read it (the log database). */
  flush(): Promise<void>;
  pending(): number;
}

/** Whether first-run setup is done, cached because every /api request asks. */
export interface SetupState {
  done: boolean;
  /** What `POST /api/setup` must be given while not done (auth/setup-token.ts); null once done. */
  token: SetupToken | null;
}
