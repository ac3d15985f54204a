/** Starting the built gateway on a throw-away SQLite file and preparing it through its management API. */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startFlags } from '../../scripts/start-flags.mjs';
import { freePort, type Started, startPinned, waitForHttp } from './processes.js';

export { startFlags };

export interface GatewayProcess extends Started {
  port: number;
  baseUrl: string;
}

export interface GatewayStartOptions {
  root: string;
  cpu: number | null;
  dataDir: string;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags: string[];
  /** A program the gateway runs under (valgrind and its options): it is given node and its arguments. */
  wrapper?: string[];
  /** How long the gateway may take to answer /api/status (much longer under valgrind). */
  startTimeoutMs?: number;
}

/**
 * The one-time setup token the bench gateway is started with: a fresh instance refuses `POST /api/setup` without it,
 * and an automated install sets it through the environment (then nothing is printed).
 */
const BENCH_SETUP_TOKEN = randomBytes(16).toString('hex');

export function gatewayEntry(root: string): string {
  return resolve(root, 'packages/server/dist/main.js');
}

export async function startGateway(options: GatewayStartOptions): Promise<GatewayProcess> {
  const entry = gatewayEntry(options.root);
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing: build first (npx tsc -b packages/shared packages/server, or npm run build)`);
  }
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    // Only what the gateway needs: a developer's own PORT, SQL_DSN or REDIS_CONN_STRING must not leak into the run.
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    SQLITE_PATH: resolve(options.dataDir, 'bench.db'),
    SESSION_SECRET: randomBytes(24).toString('hex'),
    // Warnings and errors only: an info line per request would be measured as gateway cost.
    LOG_LEVEL: 'warn',
    // Setup and sign-in are "critical" routes; the default 20 per window is plenty, but a rerun must not trip it.
    CRITICAL_RATE_LIMIT: '1000',
    SETUP_TOKEN: BENCH_SETUP_TOKEN,
    // glibc's arena limit, when the caller sets it: docs/benchmark.md quotes its effect on the peak RSS.
    ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
    ...(process.env.BENCH_BATCH_UPDATE_INTERVAL
      ? { BATCH_UPDATE_INTERVAL: process.env.BENCH_BATCH_UPDATE_INTERVAL }
      : {}),
  };
  const nodeArgs = [...startFlags(options.root), ...options.nodeFlags, entry];
  const [command, ...args] = options.wrapper
    ? [...options.wrapper, process.execPath, ...nodeArgs]
    : [process.execPath, ...nodeArgs];
  const started = startPinned('gateway', options.cpu, command!, args, env, options.root);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/api/status`, started, options.startTimeoutMs ?? 60_000);
  return { ...started, port, baseUrl };
}

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

/** A console-like client: keeps the session cookie and sends New-Api-User once signed in. */
class AdminClient {
  private cookie = '';
  private userId = '';

  constructor(private readonly baseUrl: string) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'accept-language': 'en',
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.userId ? { 'new-api-user': this.userId } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      // Generous: under callgrind (bench:instructions) Node runs about fifty times slower, and first-run setup
      // hashes a password; 15 s timed out there on a busy machine.
      signal: AbortSignal.timeout(120_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      if (pair.startsWith('session=')) this.cookie = pair;
    }
    const envelope = (await response.json()) as Envelope<T>;
    if (!envelope.success) throw new Error(`${method} ${path}: ${envelope.message || `HTTP ${response.status}`}`);
    return envelope.data;
  }

  async signIn(username: string, password: string): Promise<void> {
    const user = await this.call<{ id: number }>('POST', '/api/user/login', { username, password });
    this.userId = String(user.id);
  }
}

export const BENCH_MODEL = 'gpt-4o-mini';

/**
 * First-run setup, one OpenAI channel pointing at the mock, one unlimited token. Returns the `sk-` key. Everything
 * goes through the public management API, as an operator's script would, so the caches the relay reads are warmed
 * the normal way.
 */
export async function prepareGateway(baseUrl: string, mockBaseUrl: string): Promise<string> {
  const admin = new AdminClient(baseUrl);
  const password = randomBytes(8).toString('hex');
  await admin.call('POST', '/api/setup', {
    username: 'bench',
    password,
    confirmPassword: password,
    setup_token: BENCH_SETUP_TOKEN,
    SelfUseModeEnabled: false,
    DemoSiteEnabled: false,
  });
  await admin.signIn('bench', password);
  await admin.call('POST', '/api/channel/', {
    mode: 'single',
    channel: {
      type: 1,
      name: 'bench-mock',
      key: 'sk-bench-upstream',
      base_url: mockBaseUrl,
      models: BENCH_MODEL,
      group: 'default',
    },
  });
  const tokens = await admin.call<Array<{ key: string }>>('POST', '/api/token/', {
    name: 'bench',
    unlimited_quota: true,
  });
  const key = tokens[0]?.key;
  if (!key) throw new Error('POST /api/token/ returned no key');
  return `sk-${key}`;
}
