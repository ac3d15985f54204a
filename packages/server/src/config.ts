import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { LANGUAGES, type Language } from '@gateway/shared';
import { type DatabaseTarget, parseDatabaseTarget } from './db/dsn.js';
import { parseLogDatabaseTarget } from './db/log-dsn.js';
import type { ServerLimits } from './http/server-limits.js';
import { type AnswerLimits, DEFAULT_EVENT_BYTES, DEFAULT_WHOLE_ANSWER_BYTES } from './relay/answer-limits.js';

/** Everything the server reads from the environment, parsed once; bad values stop the start with a clear reason. */
export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  /**
   * Where usage logs live when not in the main database (LOG_SQL_DSN, LOG_SQLITE_PATH); null keeps them in `database`.
   * The main database's `logs` table is then an outbox the mover empties (db/log-transfer.ts).
   */
  logDatabase: DatabaseTarget | null;
  redisUrl: string | null;
  sessionSecret: string;
  cryptoSecret: string;
  /**
   * First-run setup (auth/setup-token.ts): the token from SETUP_TOKEN, or null to generate one; and the file beside
   * the SQLite database where a generated one is kept until setup is done (null on PostgreSQL and MySQL).
   */
  setup: { token: string | null; tokenFile: string | null };
  nodeType: 'master' | 'slave';
  nodeName: string;
  syncFrequencySeconds: number;
  /**
   * With Redis: a node counts as alive this long after its last heartbeat (NODE_HEARTBEAT_TTL); after that the other
   * nodes drop its share of the shared balances, its open reservations included.
   */
  nodeHeartbeatTtlMs: number;
  /** How often quota changes and usage logs are written to the database. */
  batchUpdateIntervalMs: number;
  /** Minutes between re-tests of auto-disabled channels (0 = never). */
  channelTestFrequencyMinutes: number;
  /** Minutes between upstream model checks of the channels that ask for them; 0: off (jobs/upstream-model-watch.ts). */
  upstreamModelWatchMinutes: number;
  /** Write a type-5 usage log for relay requests that failed upstream. */
  errorLogEnabled: boolean;
  /**
   * The language of relay errors for callers that send no Accept-Language (RELAY_DEFAULT_LANGUAGE, default en, as
   * API clients expect); a caller's Accept-Language always wins. The console's /api routes are not affected.
   */
  relayDefaultLanguage: Language;
  /** How long the relay waits for an upstream's answer to begin, and between its chunks (RELAY_TIMEOUT; 0 = no limit). */
  relayTimeoutMs: number;
  /** Drawing and Suno task polling (UPDATE_TASK, TASK_QUERY_LIMIT, TASK_TIMEOUT_MINUTES). */
  taskPoller: { enabled: boolean; queryLimit: number; timeoutMinutes: number };
  /** At most `count` notices of one type per user per window (NOTIFY_LIMIT_COUNT, NOTIFICATION_LIMIT_DURATION_MINUTE). */
  notifyLimit: { count: number; windowMinutes: number };
  criticalRateLimit: { enabled: boolean; max: number; windowSeconds: number };
  /** Per-IP limit on /api and the dashboard billing views (GLOBAL_API_RATE_LIMIT*). */
  globalApiRateLimit: RateLimitConfig;
  /** Per-IP limit on the console's pages and assets (GLOBAL_WEB_RATE_LIMIT*). */
  globalWebRateLimit: RateLimitConfig;
  trustedProxies: string[];
  sessionCookieSecure: boolean;
  sessionTtlSeconds: number;
  webDist: string | null;
  /** Request body limits: the relay's (MAX_REQUEST_BODY_MB) and anonymous routes' (sign-in, registration, …). */
  bodyLimits: { relayBytes: number; anonymousBytes: number };
  /** The most of an upstream answer held in memory (MAX_UPSTREAM_RESPONSE_MB, STREAM_SCANNER_MAX_BUFFER_MB). */
  answerLimits: AnswerLimits;
  /** How long a client may take to send a request, keep an idle connection, and how many it may hold open. */
  serverLimits: ServerLimits;
  logLevel: string;
  version: string;
  /** Where Turnstile tokens are verified (Cloudflare's siteverify; tests point it at a local fake). */
  turnstileVerifyUrl: string;
  /** Card payment APIs (STRIPE_API_BASE, CREEM_API_BASE; the vendors' hosts unless overridden, e.g. by test fakes). */
  paymentApis: PaymentApiBases;
  /** GitHub and LinuxDO endpoints (the real services unless overridden; tests point them at local fakes). */
  oauthEndpoints: OAuthEndpoints;
  /**
   * How the token and channel lists answer (API_LIST_SHAPE): `page` = `{items, total, page, page_size}` with `p`
   * from 1, as new-api today; `array` = a bare array with `p` from 0, as the family's servers of the spec's era
   * answered their own console (see http/paging.ts).
   */
  listShape: 'page' | 'array';
  /** Bearer token `GET /metrics` requires (METRICS_TOKEN); null leaves the endpoint open. */
  metricsToken: string | null;
  /** Warnings to print once the logger exists (e.g. a generated session secret). */
  warnings: string[];
}

export interface OAuthEndpoint {
  authorize: string;
  token: string;
  user: string;
}

export interface OAuthEndpoints {
  github: OAuthEndpoint;
  linuxdo: OAuthEndpoint;
}

export interface RateLimitConfig {
  enabled: boolean;
  max: number;
  windowSeconds: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const MIB = 1024 * 1024;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

export interface PaymentApiBases {
  stripe: string;
  /** null: Creem's live or test host by the `CreemTestMode` option. */
  creem: string | null;
}

const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

function readUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^https?:\/\/[^\s]+$/i.test(raw)) {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got "${raw}"`);
  }
  return raw;
}

/** A family rate limit from `<PREFIX>_ENABLE`, `<PREFIX>` (requests per window) and `<PREFIX>_DURATION` (seconds). */
function readRateLimit(env: Env, prefix: string, max: number, windowSeconds: number): RateLimitConfig {
  return {
    enabled: readBool(env, `${prefix}_ENABLE`, true),
    max: readInt(env, prefix, max, 1, 100_000_000),
    windowSeconds: readInt(env, `${prefix}_DURATION`, windowSeconds, 1, 86400),
  };
}

/**
 * Defaults: a client sends its headers in one packet, so a minute (Node's and nginx's default) is generous; five
 * minutes for a whole request (Node's default) take a 128 MiB body at 3.5 Mbit/s; 72 s of idle keep-alive (Fastify's
 * default) outlasts the 60 s idle timeout of common load balancers, so they close first and never reuse a connection
 * the gateway is closing. 256 connections from one address is far above what one client or office needs.
 */
function readServerLimits(env: Env): ServerLimits {
  const limits = {
    headersTimeoutMs: readInt(env, 'HTTP_HEADERS_TIMEOUT', 60, 1, 3600) * 1000,
    requestTimeoutMs: readInt(env, 'HTTP_REQUEST_TIMEOUT', 300, 1, 86_400) * 1000,
    keepAliveTimeoutMs: readInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT', 72, 1, 3600) * 1000,
    maxConnectionsPerIp: readInt(env, 'MAX_CONNECTIONS_PER_IP', 256, 0, 1_000_000),
  };
  // Node refuses a headers timeout longer than the whole request's, and it could never be reached anyway.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT must not be longer than HTTP_REQUEST_TIMEOUT');
  }
  return limits;
}

/**
 * Without SESSION_SECRET a random one is generated and kept next to the SQLite file, so sessions survive a
 * restart of a single node. Several nodes must share one explicit secret: we warn about that.
 */
function resolveSessionSecret(env: Env, dataDir: string, warnings: string[]): string {
  const given = env.SESSION_SECRET?.trim();
  if (given) {
    if (given === 'random_string') throw new ConfigError('SESSION_SECRET must not be the placeholder "random_string"');
    if (given.length < 16) throw new ConfigError('SESSION_SECRET must be at least 16 characters');
    return given;
  }
  const file = resolve(dataDir, '.session_secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 16) {
      warnings.push(`SESSION_SECRET is not set; using the one generated earlier in ${file}`);
      return stored;
    }
  }
  const secret = randomBytes(32).toString('hex');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  warnings.push(
    `SESSION_SECRET is not set; generated one and stored it in ${file}. Set SESSION_SECRET explicitly when running several nodes.`,
  );
  return secret;
}

function readLanguage(env: Env, name: string, fallback: Language): Language {
  const value = env[name]?.trim();
  if (!value) return fallback;
  // Any language the server's messages are written in.
  const lang = LANGUAGES.find((known) => known === value);
  if (!lang) throw new ConfigError(`${name} must be one of ${LANGUAGES.join(', ')}; got "${value}"`);
  return lang;
}

export function loadConfig(
  env: Env = process.env,
  defaults: { webDist?: string | null; version?: string } = {},
): Config {
  const warnings: string[] = [];
  const database = parseDatabaseTarget(env.SQL_DSN ?? '', env.SQLITE_PATH ?? '');
  let logDatabase: DatabaseTarget | null;
  try {
    logDatabase = parseLogDatabaseTarget(
      env.LOG_SQL_DSN ?? '',
      env.LOG_SQLITE_PATH ?? '',
      database,
      env.SQLITE_PATH ?? '',
    );
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (!logDatabase && (env.LOG_SQL_DSN ?? '').trim()) {
    warnings.push('LOG_SQL_DSN names the main database: usage logs stay in it');
  }
  const dataDir =
    database.dialect === 'sqlite' && database.path !== ':memory:' ? dirname(database.path) : resolve('data');
  const nodeTypeRaw = (env.NODE_TYPE ?? 'master').trim() || 'master';
  if (nodeTypeRaw !== 'master' && nodeTypeRaw !== 'slave') {
    throw new ConfigError(`NODE_TYPE must be "master" or "slave", got "${nodeTypeRaw}"`);
  }
  const redisUrl = env.REDIS_CONN_STRING?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(`REDIS_CONN_STRING must start with redis:// or rediss://, got "${redisUrl}"`);
  }
  const sessionSecret = resolveSessionSecret(env, dataDir, warnings);
  const listShape = (env.API_LIST_SHAPE ?? 'page').trim() || 'page';
  if (listShape !== 'page' && listShape !== 'array') {
    throw new ConfigError(`API_LIST_SHAPE must be "page" or "array", got "${listShape}"`);
  }
  const logLevel = (env.LOG_LEVEL ?? 'info').trim();
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${logLevel}"`);
  }
  return {
    port: readInt(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    database,
    logDatabase,
    redisUrl,
    sessionSecret,
    cryptoSecret: env.CRYPTO_SECRET?.trim() || sessionSecret,
    setup: {
      token: env.SETUP_TOKEN?.trim() || null,
      tokenFile:
        database.dialect === 'sqlite' && database.path !== ':memory:' ? resolve(dataDir, '.setup_token') : null,
    },
    nodeType: nodeTypeRaw,
    nodeName: env.NODE_NAME?.trim() || env.HOSTNAME?.trim() || 'node-1',
    syncFrequencySeconds: readInt(env, 'SYNC_FREQUENCY', 60, 1, 86400),
    nodeHeartbeatTtlMs: readInt(env, 'NODE_HEARTBEAT_TTL', 15, 2, 3600) * 1000,
    batchUpdateIntervalMs: readInt(env, 'BATCH_UPDATE_INTERVAL', 1, 1, 60) * 1000,
    errorLogEnabled: readBool(env, 'ERROR_LOG_ENABLED', true),
    relayDefaultLanguage: readLanguage(env, 'RELAY_DEFAULT_LANGUAGE', 'en'),
    relayTimeoutMs: readInt(env, 'RELAY_TIMEOUT', 300, 0, 86_400) * 1000,
    taskPoller: {
      enabled: readBool(env, 'UPDATE_TASK', true),
      queryLimit: readInt(env, 'TASK_QUERY_LIMIT', 1000, 1, 100_000),
      timeoutMinutes: readInt(env, 'TASK_TIMEOUT_MINUTES', 1440, 1, 525_600),
    },
    notifyLimit: {
      count: readInt(env, 'NOTIFY_LIMIT_COUNT', 2, 1, 1000),
      windowMinutes: readInt(env, 'NOTIFICATION_LIMIT_DURATION_MINUTE', 10, 1, 10_080),
    },
    channelTestFrequencyMinutes: readInt(env, 'CHANNEL_TEST_FREQUENCY', 10, 0, 10_080),
    upstreamModelWatchMinutes: readBool(env, 'CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_ENABLED', true)
      ? readInt(env, 'CHANNEL_UPSTREAM_MODEL_UPDATE_TASK_INTERVAL_MINUTES', 60, 1, 10_080)
      : 0,
    criticalRateLimit: {
      enabled: readBool(env, 'CRITICAL_RATE_LIMIT_ENABLE', true),
      max: readInt(env, 'CRITICAL_RATE_LIMIT', 20, 1, 1_000_000),
      windowSeconds: readInt(env, 'CRITICAL_RATE_LIMIT_DURATION', 1200, 1, 86400),
    },
    globalApiRateLimit: readRateLimit(env, 'GLOBAL_API_RATE_LIMIT', 360, 180),
    globalWebRateLimit: readRateLimit(env, 'GLOBAL_WEB_RATE_LIMIT', 120, 180),
    trustedProxies: (env.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    sessionCookieSecure: readBool(env, 'SESSION_COOKIE_SECURE', false),
    sessionTtlSeconds: readInt(env, 'SESSION_TTL_SECONDS', 30 * 24 * 3600, 60, 365 * 24 * 3600),
    webDist: env.WEB_DIST?.trim() || defaults.webDist || null,
    bodyLimits: {
      relayBytes: readInt(env, 'MAX_REQUEST_BODY_MB', 128, 1, 4096) * 1024 * 1024,
      anonymousBytes: readInt(env, 'ANONYMOUS_REQUEST_BODY_LIMIT_KB', 64, 1, 1_048_576) * 1024,
    },
    answerLimits: {
      wholeBytes: readInt(env, 'MAX_UPSTREAM_RESPONSE_MB', DEFAULT_WHOLE_ANSWER_BYTES / MIB, 1, 4096) * MIB,
      eventBytes: readInt(env, 'STREAM_SCANNER_MAX_BUFFER_MB', DEFAULT_EVENT_BYTES / MIB, 1, 4096) * MIB,
    },
    serverLimits: readServerLimits(env),
    logLevel,
    version: env.VERSION?.trim() || defaults.version || '0.0.0',
    turnstileVerifyUrl: readUrl(env, 'TURNSTILE_VERIFY_URL', TURNSTILE_SITEVERIFY_URL),
    paymentApis: {
      stripe: readUrl(env, 'STRIPE_API_BASE', 'https://api.stripe.com').replace(/\/+$/, ''),
      creem: env.CREEM_API_BASE?.trim() ? readUrl(env, 'CREEM_API_BASE', '').replace(/\/+$/, '') : null,
    },
    oauthEndpoints: {
      github: {
        authorize: readUrl(env, 'GITHUB_AUTHORIZE_ENDPOINT', 'https://github.com/login/oauth/authorize'),
        token: readUrl(env, 'GITHUB_TOKEN_ENDPOINT', 'https://github.com/login/oauth/access_token'),
        user: readUrl(env, 'GITHUB_USER_ENDPOINT', 'https://api.github.com/user'),
      },
      linuxdo: {
        authorize: readUrl(env, 'LINUX_DO_AUTHORIZE_ENDPOINT', 'https://connect.linux.do/oauth2/authorize'),
        token: readUrl(env, 'LINUX_DO_TOKEN_ENDPOINT', 'https://connect.linux.do/oauth2/token'),
        user: readUrl(env, 'LINUX_DO_USER_ENDPOINT', 'https://connect.linux.do/api/user'),
      },
    },
    listShape,
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    warnings,
  };
}
