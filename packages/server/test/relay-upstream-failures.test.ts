import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { clientRequest, type Format } from './helpers/client-formats.js';
import { addChannel, addToken, flushBilling, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import {
  type BrokenUpstream,
  closedPort,
  FAILURES,
  type FailureName,
  startBrokenUpstream,
  UPSTREAM_ADDRESS,
  UPSTREAM_HOST,
} from './mock-upstream/broken-upstream.js';

// Whatever a broken upstream (or whatever stands in front of it) answers, the caller gets an error status in its
// own format with a message that names no host, address or library, pays nothing, and the admin's error log keeps
// the detail. Rows: the failures; columns: the client formats, converted and native.

type Shape = FailureName | 'dns-failure' | 'tls-failure' | 'connection-refused';
const SHAPES: Shape[] = [
  ...(Object.keys(FAILURES) as FailureName[]),
  'dns-failure',
  'tls-failure',
  'connection-refused',
];

/** The status the caller gets: the upstream's own error status, else 502 (504 when the wait ran out). */
const STATUS: Partial<Record<Shape, number>> = {
  'cdn-html-520': 520,
  'plain-text-500': 500,
  'json-without-message-500': 500,
  'no-answer': 504,
};

const LEAKS = [
  UPSTREAM_HOST,
  UPSTREAM_ADDRESS,
  '127.0.0.1',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'getaddrinfo',
  'undici',
  'UND_ERR',
  'socket',
  'other side closed',
  'TLS',
  'SSL',
  '<html',
  'cloudflare',
  'sk-channel-key',
];

/** Which channel serves a column's models: OpenAI-format (the client's request converted), Claude or Gemini. */
const CHANNEL_TYPES = { oa: 1, cl: 14, ge: 24 } as const;
const COLUMNS: Record<string, { format: Format; channel: keyof typeof CHANNEL_TYPES }> = {
  openai: { format: 'openai', channel: 'oa' },
  claude: { format: 'claude', channel: 'oa' },
  gemini: { format: 'gemini', channel: 'oa' },
  'claude-native': { format: 'claude', channel: 'cl' },
  'gemini-native': { format: 'gemini', channel: 'ge' },
};

/** The message of an error in the format's own shape, undefined when the body has another shape. */
function errorMessage(format: Format, json: Record<string, unknown>): string | undefined {
  const error = json.error as { message?: string; type?: unknown; status?: unknown; code?: unknown } | undefined;
  if (format === 'claude') return json.type === 'error' && typeof error?.type === 'string' ? error.message : undefined;
  if (format === 'gemini') {
    return typeof error?.status === 'string' && typeof error.code === 'number' ? error.message : undefined;
  }
  return typeof error?.type === 'string' && 'code' in error ? error.message : undefined;
}

function expectGeneric(message: string | undefined, whole: unknown): void {
  expect(message, JSON.stringify(whole)).toBeTruthy();
  for (const leak of LEAKS) expect(message!.toLowerCase()).not.toContain(leak.toLowerCase());
}

describe('upstream failures reach the caller clean, in each client format', () => {
  let server: TestServer;
  let broken: BrokenUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    broken = await startBrokenUpstream();
    const refusedPort = await closedPort();
    const baseUrls: Record<Shape, string> = {
      ...(Object.fromEntries(Object.keys(FAILURES).map((name) => [name, `${broken.baseUrl}/${name}`])) as Record<
        FailureName,
        string
      >),
      'dns-failure': `http://${UPSTREAM_HOST.replace('example', 'invalid')}`,
      'tls-failure': `https://${broken.baseUrl.replace('http://', '')}/tls`,
      'connection-refused': `http://127.0.0.1:${refusedPort}`,
    };
    // One second is the wait for an answer, so the upstream that never answers is a test of a second.
    server = await startTestServer('sqlite', { RELAY_TIMEOUT: '1' });
    root = await setupAndLogin(server.baseUrl);
    const prices: Record<string, number> = {};
    for (const [prefix, type] of Object.entries(CHANNEL_TYPES)) {
      for (const shape of SHAPES) {
        await addChannel(root, {
          type,
          key: 'sk-channel-key-123456',
          base_url: baseUrls[shape],
          models: `${prefix}-${shape}`,
        });
        prices[`${prefix}-${shape}`] = 1;
      }
    }
    await priceModels(server, root, prices);
    key = await addToken(root, { name: 'failures', remain_quota: 1_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await broken?.close();
  });

  /** The user's quota and the key's remaining quota, as the console reads them. */
  const balances = async () => {
    await flushBilling(server);
    const self = await root.get<{ quota: number }>('/api/user/self');
    const tokens = await root.get<{ items: Array<{ remain_quota: number }> }>(`/api/token/search?token=${key}`);
    return { user: self.data.quota, token: tokens.data.items[0]!.remain_quota };
  };

  const call = (column: string, shape: Shape, stream: boolean) => {
    const { format, channel } = COLUMNS[column]!;
    const ask = clientRequest(format, `${channel}-${shape}`, key, stream);
    return fetch(`${server.baseUrl}${ask.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...ask.headers },
      body: JSON.stringify(ask.body),
    });
  };

  const cases = (shapes: Shape[]) =>
    shapes.flatMap((shape) => Object.keys(COLUMNS).map((column) => [shape, column] as const));

  it.each(cases(SHAPES))(
    '%s answered to a %s client: an error status in its shape, nothing leaked, nothing charged',
    async (shape, column) => {
      const before = await balances();
      const answer = await call(column, shape, false);
      expect(answer.status).toBe(STATUS[shape] ?? 502);
      const json = (await answer.json()) as Record<string, unknown>;
      expectGeneric(errorMessage(COLUMNS[column]!.format, json), json);
      expect(await balances()).toEqual(before);
    },
  );

  it.each(cases(SHAPES.filter((shape) => shape !== 'sse-cut-mid-way')))(
    '%s answered to a streaming %s client before its stream began: an error status, nothing charged',
    async (shape, column) => {
      const before = await balances();
      const answer = await call(column, shape, true);
      expect(answer.status).toBe(STATUS[shape] ?? 502);
      const json = (await answer.json()) as Record<string, unknown>;
      expectGeneric(errorMessage(COLUMNS[column]!.format, json), json);
      expect(await balances()).toEqual(before);
    },
  );

  it.each(Object.keys(COLUMNS))(
    'a stream cut mid-way ends with an error event a %s client reads as an error',
    async (column) => {
      const { format } = COLUMNS[column]!;
      const answer = await call(column, 'sse-cut-mid-way', true);
      expect(answer.status).toBe(200);
      const events = (await answer.text()).trim().split('\n\n');
      const last = events.at(-1)!;
      if (format === 'claude') expect(last.startsWith('event: error\n')).toBe(true);
      const json = JSON.parse(last.slice(last.indexOf('data: ') + 6)) as Record<string, unknown>;
      expectGeneric(errorMessage(format, json), json);
    },
  );

  it('keeps what really happened in the admin-only part of the error log', async () => {
    await flushBilling(server);
    type Row = { other: string; model_name: string };
    const adminRows = await root.get<{ items: Row[] }>('/api/log/?type=5&p=1&page_size=1000');
    const detail = (model: string) => {
      const row = adminRows.data.items.find((item) => item.model_name === model);
      return (JSON.parse(row!.other) as { admin_info: { upstream_detail?: string } }).admin_info.upstream_detail;
    };
    expect(detail('oa-cdn-html-502')).toContain(`HTTP 502: <!DOCTYPE html><html><head><title>${UPSTREAM_HOST}`);
    expect(detail('oa-json-without-message-500')).toContain(UPSTREAM_ADDRESS);
    expect(detail('oa-wrong-shape-200')).toBe('HTTP 200: {"hello":"world"}');
    expect(detail('oa-redirect')).toContain('HTTP 301');
    expect(detail('oa-connection-refused')).toContain('ECONNREFUSED');
    expect(detail('oa-no-answer')).toContain('UND_ERR_HEADERS_TIMEOUT');
    expect(detail('oa-dns-failure')).toContain('invalid');
    // The same rows in the caller's own log say nothing of it.
    const ownRows = await root.get<{ items: Row[] }>('/api/log/self?type=5&p=1&page_size=1000');
    expect(ownRows.data.items.length).toBe(adminRows.data.items.length);
    for (const leak of [UPSTREAM_HOST, UPSTREAM_ADDRESS, 'ECONNREFUSED', 'admin_info']) {
      expect(JSON.stringify(ownRows.data.items)).not.toContain(leak);
    }
  });
});
