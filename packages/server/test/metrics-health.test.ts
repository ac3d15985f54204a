import type { MetricsSummary } from '@gateway/shared';
import { sql } from 'kysely';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects, REDIS_URL } from './helpers/databases.js';
import { type MetricFamily, parsePrometheusText, sampleValue } from './helpers/prometheus-text.js';
import { requireRedisInCi } from './helpers/redis.js';
import { addChannel, addToken, apiError, flushBilling, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startTcpRelay } from './helpers/tcp-relay.js';
import { until } from './helpers/wait.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const redisUp = await requireRedisInCi('the /readyz Redis check');
const pooledDialects = (await availableDialects()).filter((dialect) => dialect !== 'sqlite');
const METRICS_TOKEN = 'metrics-secret-0123456789';
const CHAT = '/v1/chat/completions';
const MODEL = 'metrics-model';
const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'hello there' }] };
const usage = { prompt: 10, completion: 20 };
/** ModelRatio 2 and CompletionRatio 3: (10 prompt + 20 completion × 3) × 2 = 140 quota per answered request. */
const QUOTA_PER_ANSWER = 140;

async function scrape(server: TestServer, token: string | null = METRICS_TOKEN) {
  const response = await fetch(`${server.baseUrl}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return response;
}

async function metrics(server: TestServer): Promise<Map<string, MetricFamily>> {
  const response = await scrape(server);
  expect(response.status).toBe(200);
  const text = await response.text();
  const families = parsePrometheusText(text);
  // A parser nobody here wrote reads the same families, types and label sets (histograms grouped by their base).
  const independent = parsePrometheusTextFormat(text);
  expect(independent.map((family) => `${family.name} ${family.type.toLowerCase()}`).sort()).toEqual(
    [...families.values()].map((family) => `${family.name} ${family.type}`).sort(),
  );
  for (const family of independent) {
    if (family.type !== 'HISTOGRAM') continue;
    for (const series of family.metrics) {
      // Cumulative buckets, ending in +Inf.
      const counts = Object.entries(series.buckets ?? {})
        .sort(([a], [b]) => (a === '+Inf' ? Infinity : Number(a)) - (b === '+Inf' ? Infinity : Number(b)))
        .map(([, count]) => Number(count));
      expect(series.buckets, family.name).toHaveProperty('+Inf');
      expect(counts, family.name).toEqual([...counts].sort((a, b) => a - b));
    }
  }
  return families;
}

describe('the strict exposition parser used here', () => {
  it('accepts well-formed text and refuses what Prometheus would refuse', () => {
    const good = [
      '# HELP a_total Counts "things"\\nover lines',
      '# TYPE a_total counter',
      'a_total{x="q\\"uote\\\\ and\\nnewline",y=""} 3',
      '# TYPE h histogram',
      'h_bucket{le="1"} 1',
      'h_bucket{le="+Inf"} 2',
      'h_sum 4.5',
      'h_count 2',
      '',
    ].join('\n');
    const parsed = parsePrometheusText(good);
    expect(parsed.get('a_total')?.help).toBe('Counts "things"\nover lines');
    expect(sampleValue(parsed, 'a_total', { x: 'q"uote\\ and\nnewline', y: '' })).toBe(3);
    const refused = [
      'a b 1\n', // bad name
      '# TYPE a counter\na{x="\\t"} 1\n', // unknown escape
      'a{x=y} 1\n', // unquoted value
      'a{x="1",x="2"} 1\n', // label twice
      'a 1\n# TYPE a counter\n', // TYPE after samples
      'a 1\nb 1\na{x="1"} 1\n', // family split
      'a 1\na 2\n', // series twice
      '# TYPE a counter\na -1\n', // negative counter
      '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', // no +Inf
      '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 1\n', // +Inf differs from count
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n', // not cumulative
      'a 1', // no final newline
    ];
    for (const text of refused) expect(() => parsePrometheusText(text), text).toThrow();
  });
});

describe('metrics and health endpoints', () => {
  let mock: MockUpstream;
  let server: TestServer;
  let root: ApiClient;
  let key: string;
  let primary: number;
  let backup: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    // Writes only every 60 s: the queues stay filled until the test flushes them itself.
    server = await startTestServer('sqlite', { METRICS_TOKEN, BATCH_UPDATE_INTERVAL: '60' });
    root = await setupAndLogin(server.baseUrl);
    key = await addToken(root, { unlimited_quota: true });
    primary = await addChannel(root, {
      type: 1,
      key: 'primary-key',
      base_url: mock.baseUrl,
      models: MODEL,
      priority: 10,
    });
    backup = await addChannel(root, { type: 1, key: 'backup-key', base_url: mock.baseUrl, models: MODEL, priority: 0 });
    await priceModels(server, root, { [MODEL]: 2 });
    await root.put('/api/option/', { key: 'CompletionRatio', value: JSON.stringify({ [MODEL]: 3 }) });
    await root.put('/api/option/', { key: 'RetryTimes', value: '2' });

    const openai = openaiClient(server, key);
    const ok = { kind: 'ok' as const, usage };
    // Two answers and one stream from the primary channel.
    mock.enqueue('openai.chat', ok, ok, { ...ok, chunkDelayMs: 20 });
    await openai.chat.completions.create(ask);
    await openai.chat.completions.create(ask);
    const stream = await openai.chat.completions.create({ ...ask, stream: true });
    for await (const _chunk of stream) {
      // read to the end
    }
    // A 500 and a reset on the primary: each retried once on the backup, which answers.
    mock.enqueue('openai.chat', { kind: 'status', status: 500 }, ok, { kind: 'reset-before' }, ok);
    await openai.chat.completions.create(ask);
    await openai.chat.completions.create(ask);
    // A 400 is not retried; two 500s use up both channels.
    const failing = (status: number) => ({ kind: 'status' as const, status });
    mock.enqueue('openai.chat', failing(400), failing(500), failing(500));
    expect((await apiError(openai.chat.completions.create(ask))).status).toBe(400);
    expect((await apiError(openai.chat.completions.create(ask))).status).toBe(500);
    // An unknown key: refused before any model or channel is known.
    expect((await apiError(openaiClient(server, 'sk-unknown').chat.completions.create(ask))).status).toBe(401);
    // A client that gives up while the primary has not answered yet.
    mock.enqueue('openai.chat', { kind: 'hang' });
    const controller = new AbortController();
    const leaving = openai.chat.completions.create(ask, { signal: controller.signal }).catch(() => null);
    await until(() => mock.openRequests() === 1, { what: 'the hanging upstream request' });
    controller.abort();
    await leaving;
    await until(
      async () =>
        sampleValue(await metrics(server), 'gateway_relay_request_duration_seconds_count', { route: CHAT }) === 9,
      {
        what: 'the cancelled request counted',
      },
    );
  });

  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('answers 401 without the metrics token, and the exposition with it', async () => {
    for (const token of [null, 'wrong-token']) {
      const refused = await scrape(server, token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await refused.text()).not.toContain('gateway_');
    }
    const basic = await fetch(`${server.baseUrl}/metrics`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    const allowed = await scrape(server);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(allowed.headers.get('cache-control')).toBe('no-store');
  });

  it('counts relay requests by route, model, channel and outcome, and retries', async () => {
    const families = await metrics(server);
    const requests = families.get('gateway_relay_requests_total')!;
    expect(requests.type).toBe('counter');
    const counted = Object.fromEntries(
      requests.samples.map((sample) => [
        `${sample.labels.route} ${sample.labels.model} ${sample.labels.channel} ${sample.labels.outcome}`,
        sample.value,
      ]),
    );
    expect(counted).toEqual({
      [`${CHAT} ${MODEL} ${primary} success`]: 3,
      [`${CHAT} ${MODEL} ${backup} success`]: 2,
      [`${CHAT} ${MODEL} ${primary} error`]: 1,
      [`${CHAT} ${MODEL} ${backup} error`]: 1,
      [`${CHAT}   error`]: 1,
      [`${CHAT} ${MODEL} ${primary} cancelled`]: 1,
    });
    expect(sampleValue(families, 'gateway_relay_retries_total', { route: CHAT })).toBe(3);
  });

  it('counts upstream answers by channel and status, unreachable included', async () => {
    const upstream = (await metrics(server)).get('gateway_upstream_responses_total')!;
    const counted = Object.fromEntries(
      upstream.samples.map((sample) => [`${sample.labels.channel} ${sample.labels.status}`, sample.value]),
    );
    expect(counted).toEqual({
      [`${primary} 200`]: 3,
      [`${primary} 500`]: 2,
      [`${primary} unreachable`]: 1,
      [`${primary} 400`]: 1,
      [`${backup} 200`]: 2,
      [`${backup} 500`]: 1,
    });
  });

  it('keeps latency and time-to-first-token histograms by route', async () => {
    const families = await metrics(server);
    const duration = families.get('gateway_relay_request_duration_seconds')!;
    expect(duration.type).toBe('histogram');
    expect(sampleValue(families, 'gateway_relay_request_duration_seconds_count', { route: CHAT })).toBe(9);
    const buckets = duration.samples.filter((sample) => sample.name.endsWith('_bucket'));
    expect(buckets.map((sample) => sample.labels.le)).toEqual([
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '30',
      '60',
      '120',
      '300',
      '+Inf',
    ]);
    // Only the stream has a first token; when exactly it came is the machine's business, so only its bounds.
    expect(sampleValue(families, 'gateway_relay_time_to_first_token_seconds_count', { route: CHAT })).toBe(1);
    const firstToken = sampleValue(families, 'gateway_relay_time_to_first_token_seconds_sum', { route: CHAT })!;
    const total = sampleValue(families, 'gateway_relay_request_duration_seconds_sum', { route: CHAT })!;
    expect(firstToken).toBeGreaterThan(0);
    expect(firstToken).toBeLessThan(total);
  });

  it('counts billed tokens and quota by model, equal to the usage logs', async () => {
    const families = await metrics(server);
    expect(sampleValue(families, 'gateway_relay_prompt_tokens_total', { model: MODEL })).toBe(5 * usage.prompt);
    expect(sampleValue(families, 'gateway_relay_completion_tokens_total', { model: MODEL })).toBe(5 * usage.completion);
    expect(sampleValue(families, 'gateway_relay_quota_total', { model: MODEL })).toBe(5 * QUOTA_PER_ANSWER);
    await flushBilling(server);
    const logged = await server.ctx.db.kysely
      .selectFrom('logs')
      .select((eb) => eb.fn.sum<number>('quota').as('quota'))
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    expect(Number(logged.quota)).toBe(5 * QUOTA_PER_ANSWER);
  });

  it("gives root's dashboard the same figures added up, and refuses everyone else", async () => {
    const summary = await root.get<MetricsSummary>('/api/metrics/summary');
    expect(summary.data).toMatchObject({
      requests: { success: 5, error: 3, cancelled: 1 },
      retries: 3,
      // 500 twice and 400 once on the primary, 500 once on the backup, one unreachable.
      upstream_errors: 5,
      tokens: { prompt: 5 * usage.prompt, completion: 5 * usage.completion },
      quota: 5 * QUOTA_PER_ANSWER,
    });
    expect(summary.data.latency.p50).toBeGreaterThan(0);
    expect(summary.data.latency.p95).toBeGreaterThanOrEqual(summary.data.latency.p50!);
    expect(summary.data.first_token.p50).toBeGreaterThan(0);
    expect(summary.data.memory_rss_bytes).toBeGreaterThan(10 * 1024 * 1024);
    const user = await signedInUser(server.baseUrl, server.ctx.repos, 'metrics-viewer');
    expect((await user.get('/api/metrics/summary')).success).toBe(false);
  });

  it('shows the write queues filling and emptying', async () => {
    // Fresh traffic on a queue nobody flushes for 60 s: one answer, one consume log, three balances.
    mock.enqueue('openai.chat', { kind: 'ok', usage });
    await flushBilling(server);
    await openaiClient(server, key).chat.completions.create(ask);
    const before = await metrics(server);
    expect(sampleValue(before, 'gateway_usage_log_queue_rows')).toBe(1);
    expect(sampleValue(before, 'gateway_ledger_pending_balances', { kind: 'user' })).toBe(1);
    expect(sampleValue(before, 'gateway_ledger_pending_balances', { kind: 'token' })).toBe(1);
    expect(sampleValue(before, 'gateway_ledger_pending_balances', { kind: 'channel' })).toBe(1);
    await flushBilling(server);
    const after = await metrics(server);
    expect(sampleValue(after, 'gateway_usage_log_queue_rows')).toBe(0);
    for (const kind of ['user', 'token', 'channel']) {
      expect(sampleValue(after, 'gateway_ledger_pending_balances', { kind })).toBe(0);
    }
  });

  it('counts auth cache hits and misses, and shows the channel cache', async () => {
    const lookups = (families: Map<string, MetricFamily>, cache: string, result: string) =>
      sampleValue(families, 'gateway_auth_cache_lookups_total', { cache, result })!;
    const before = await metrics(server);
    mock.enqueue('openai.chat', { kind: 'ok', usage });
    await openaiClient(server, key).chat.completions.create(ask);
    // A key never seen: one database read, then remembered as unknown.
    await apiError(openaiClient(server, 'sk-another-unknown').chat.completions.create(ask));
    await apiError(openaiClient(server, 'sk-another-unknown').chat.completions.create(ask));
    const after = await metrics(server);
    expect(lookups(after, 'token', 'hit') - lookups(before, 'token', 'hit')).toBe(2);
    expect(lookups(after, 'token', 'miss') - lookups(before, 'token', 'miss')).toBe(1);
    expect(lookups(after, 'user', 'hit') - lookups(before, 'user', 'hit')).toBe(1);
    expect(lookups(after, 'user', 'miss') - lookups(before, 'user', 'miss')).toBe(0);
    expect(sampleValue(after, 'gateway_auth_cache_entries', { cache: 'token' })).toBe(
      server.ctx.authCache.size().tokens,
    );
    expect(sampleValue(after, 'gateway_channel_cache_channels')).toBe(2);
    expect(sampleValue(after, 'gateway_channel_cache_reloads_total')).toBe(server.ctx.channelCache.reloads);
  });

  it('reports process memory, uptime and event-loop delay; no pool on SQLite', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const families = await metrics(server);
    expect(sampleValue(families, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    const heapUsed = sampleValue(families, 'nodejs_heap_size_used_bytes')!;
    expect(heapUsed).toBeGreaterThan(0);
    expect(heapUsed).toBeLessThanOrEqual(sampleValue(families, 'nodejs_heap_size_total_bytes')!);
    // The test server runs in this process: the same uptime.
    expect(Math.abs(sampleValue(families, 'gateway_uptime_seconds')! - process.uptime())).toBeLessThan(5);
    // Percentiles are read from HDR buckets and may round above the exact max: compare like with like.
    const lag = (stat: string) => sampleValue(families, `nodejs_eventloop_lag_${stat}_seconds`)!;
    expect(lag('min')).toBeGreaterThanOrEqual(0);
    expect(lag('min')).toBeLessThanOrEqual(lag('max'));
    expect(lag('p50')).toBeLessThanOrEqual(lag('p99'));
    expect(lag('max')).toBeLessThan(10);
    expect(families.has('gateway_db_pool_connections')).toBe(false);
  });

  it('answers /healthz and /readyz without auth, and HEAD too', async () => {
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('{"status":"ok"}');
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', migrations: 'ok', redis: 'off' },
    });
    expect((await fetch(`${server.baseUrl}/healthz`, { method: 'HEAD' })).status).toBe(200);
  });
});

describe('health checks under limits and failures', () => {
  it('never rate-limits /healthz, /readyz or /metrics, while pages are limited', async () => {
    const server = await startTestServer('sqlite', { GLOBAL_WEB_RATE_LIMIT: '2' });
    try {
      for (let round = 0; round < 5; round++) {
        for (const path of ['/healthz', '/readyz', '/metrics']) {
          expect((await fetch(`${server.baseUrl}${path}`)).status, `${path} #${round}`).toBe(200);
        }
      }
      const pages = [];
      for (let round = 0; round < 3; round++) pages.push((await fetch(`${server.baseUrl}/login`)).status);
      expect(pages.at(-1)).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('is not ready once the database stops answering, while still healthy', async () => {
    const server = await startTestServer('sqlite');
    try {
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      await server.ctx.db.close();
      const ready = await fetch(`${server.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'unavailable',
        failed: ['database'],
        checks: { database: 'failed', migrations: 'ok', redis: 'off' },
      });
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('is not ready on a slave node until every migration has run', async () => {
    const master = await startTestServer('sqlite');
    const slave = await startTestServer('sqlite', { NODE_TYPE: 'slave' }, master.database);
    try {
      const [last] = await sql<{
        name: string;
        timestamp: string;
      }>`select name, timestamp from kysely_migration order by name desc limit 1`
        .execute(master.ctx.db.kysely)
        .then((result) => result.rows);
      await sql`delete from kysely_migration where name = ${last!.name}`.execute(master.ctx.db.kysely);
      const waiting = await fetch(`${slave.baseUrl}/readyz`);
      expect(waiting.status).toBe(503);
      expect(await waiting.json()).toMatchObject({ failed: ['migrations'], checks: { migrations: 'pending' } });
      await sql`insert into kysely_migration (name, timestamp) values (${last!.name}, ${last!.timestamp})`.execute(
        master.ctx.db.kysely,
      );
      expect((await fetch(`${slave.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      await slave.close();
      await master.close();
    }
  });

  it.runIf(redisUp)(
    'stays ready but degraded within about a second when Redis stops answering (strict: not ready), ok again after',
    async () => {
      const target = new URL(REDIS_URL);
      // A relay in front of Redis that the test cuts and restores: the server starts with a live Redis.
      const proxy = await startTcpRelay(target.hostname, Number(target.port || 6379));
      const server = await startTestServer('sqlite', { REDIS_CONN_STRING: `redis://127.0.0.1:${proxy.port}` });
      // ioredis prints every failed reconnect unless someone listens; this outage is on purpose.
      for (const connection of [server.ctx.redis!.client, server.ctx.redis!.subscriber])
        connection.on('error', () => {});
      try {
        expect(await (await fetch(`${server.baseUrl}/readyz`)).json()).toMatchObject({ checks: { redis: 'ok' } });
        await proxy.stop();
        const started = Date.now();
        const ready = await fetch(`${server.baseUrl}/readyz`);
        expect(Date.now() - started).toBeLessThan(2_500);
        // The node serves from its own memory meanwhile: taking every node out would be the outage.
        expect(ready.status).toBe(200);
        const body = (await ready.json()) as { status: string; degraded: string[]; checks: { redis: string } };
        expect(body.status).toBe('degraded');
        expect(body.degraded).toEqual(['redis']);
        expect(['timeout', 'failed']).toContain(body.checks.redis);
        const strict = await fetch(`${server.baseUrl}/readyz?strict`);
        expect(strict.status).toBe(503);
        expect(((await strict.json()) as { failed: string[] }).failed).toEqual(['redis']);
        await proxy.restart();
        const strictStatus = async () =>
          ((await (await fetch(`${server.baseUrl}/readyz?strict`)).json()) as { status: string }).status;
        await until(async () => (await strictStatus()) === 'ok', {
          timeoutMs: 10_000,
          what: 'ready again after Redis came back',
        });
      } finally {
        await proxy.restart().catch(() => {});
        await server.close();
        await proxy.stop();
      }
    },
  );
});

describe.runIf(pooledDialects.length > 0).each(pooledDialects)('the database pool on %s', (dialect) => {
  it('shows idle and busy connections and waiting queries', async () => {
    const server = await startTestServer(dialect);
    try {
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      const families = parsePrometheusText(await (await fetch(`${server.baseUrl}/metrics`)).text());
      const stats = server.ctx.db.pool!();
      const idle = sampleValue(families, 'gateway_db_pool_connections', { state: 'idle' })!;
      const busy = sampleValue(families, 'gateway_db_pool_connections', { state: 'busy' })!;
      // Read a moment apart from the scrape: only what cannot move while nothing runs is compared exactly.
      expect(idle + busy).toBe(stats.total);
      expect(idle + busy).toBeGreaterThanOrEqual(1);
      expect(sampleValue(families, 'gateway_db_pool_waiting_queries')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
