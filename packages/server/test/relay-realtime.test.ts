import { connect as plainConnect } from 'node:net';
import { LogType, type OptionKey } from '@gateway/shared';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { addChannel, addToken, balances, flushBilling } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';
import { REALTIME_KEY, type RealtimeUsageWire } from './mock-upstream/realtime.js';

// The Realtime API (GET /v1/realtime with a WebSocket upgrade) relayed to OpenAI and Azure channels: the official
// openai SDK's realtime client runs a session through the gateway against a mock upstream speaking the real event
// protocol; each response.done is billed by hand-computed figures (text, audio and cached tokens at their own ratios)
// and logged as its own row; refusals (key, model) are HTTP answers before any socket, upstream included; a client
// leaving mid-response pays what the upstream reported (here: nothing), never twice; either side's close closes the
// other.

const MODEL = 'rt-gpt-realtime';
const AZURE_MODEL = 'rt-azure-realtime';
const AZURE_DEPLOYMENT = 'my-realtime-deployment';

// Ratios set for MODEL below: prompt 2, completion 4, cache 0.5, audio 8, audio completion 2.
const SECOND_USAGE: RealtimeUsageWire = {
  total_tokens: 315,
  input_tokens: 210,
  output_tokens: 105,
  input_token_details: { text_tokens: 10, audio_tokens: 200, cached_tokens: 0 },
  output_token_details: { text_tokens: 5, audio_tokens: 100 },
};
// The mock's default usage: text in 60 (20 of them cached), audio in 40, text out 30, audio out 50:
// (40 + 20 × 0.5 + 40 × 8 + 30 × 4 + 50 × 8 × 2) × 2 = 1290 × 2.
const FIRST_QUOTA = 2580;
// (10 + 200 × 8 + 5 × 4 + 100 × 8 × 2) × 2 = 3230 × 2.
const SECOND_QUOTA = 6460;

/** The SDK builds a `wss:` URL; the test gateway speaks plain HTTP, so its TLS is left out of the connection. */
const plainSocket = {
  createConnection: ((options: { host?: string; port?: number | string }) =>
    plainConnect({ host: options.host ?? '127.0.0.1', port: Number(options.port) })) as never,
};

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A handshake the gateway must refuse: its HTTP status and body. */
function refusedHandshake(url: string, options: WebSocket.ClientOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.on('open', () => reject(new Error('the handshake was accepted')));
    socket.on('error', () => {});
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
  });
}

describe('Realtime relay', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let azureChannel: number;

  const wsUrl = (model: string) => `${server.baseUrl.replace(/^http/, 'ws')}/v1/realtime?model=${model}`;

  const logsOf = async (model: string, username?: string) => {
    await flushBilling(server);
    const rows = (await server.ctx.repos.logs.list({ type: LogType.Consume, modelName: model }, 0, 50)).items;
    return username ? rows.filter((row) => row.username === username) : rows;
  };

  /** A user of their own with a token, so balances and log rows are theirs alone. */
  const newCaller = async (name: string, quota = 1_000_000) => {
    const user = await signedInUser(server.baseUrl, server.ctx.repos, name);
    await server.ctx.repos.users.addQuota(user.userId!, quota);
    const key = await addToken(user, { name: 'realtime', remain_quota: quota });
    return { user, key, userId: user.userId! };
  };

  const setOption = async (key: OptionKey, value: Record<string, number>) => {
    const current = server.ctx.options.json<Record<string, number>>(key) ?? {};
    const saved = await root.put('/api/option/', { key, value: JSON.stringify({ ...current, ...value }) });
    if (!saved.success) throw new Error(saved.message);
  };

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: REALTIME_KEY, base_url: mock.baseUrl, models: MODEL });
    azureChannel = await addChannel(root, {
      type: 3,
      key: REALTIME_KEY,
      base_url: mock.baseUrl,
      other: '2024-10-01-preview',
      models: AZURE_MODEL,
      model_mapping: JSON.stringify({ [AZURE_MODEL]: AZURE_DEPLOYMENT }),
    });
    for (const model of [MODEL, AZURE_MODEL]) {
      await setOption('ModelRatio', { [model]: 2 });
      await setOption('CompletionRatio', { [model]: 4 });
      await setOption('CacheRatio', { [model]: 0.5 });
      await setOption('AudioRatio', { [model]: 8 });
      await setOption('AudioCompletionRatio', { [model]: 2 });
    }
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('runs two responses through the official SDK client, each billed by hand and logged', async () => {
    const { key, userId } = await newCaller('realtime-sdk');
    const before = await balances(server, userId, key);
    mock.realtime.usages.push(
      {
        total_tokens: 180,
        input_tokens: 100,
        output_tokens: 80,
        input_token_details: { text_tokens: 60, audio_tokens: 40, cached_tokens: 20 },
        output_token_details: { text_tokens: 30, audio_tokens: 50 },
      },
      SECOND_USAGE,
    );
    const client = new OpenAI({ apiKey: key, baseURL: `${server.baseUrl}/v1` });
    const rt = new OpenAIRealtimeWS({ model: MODEL, options: plainSocket }, client);
    const events: Array<{ type: string; [key: string]: unknown }> = [];
    rt.on('event', (event) => events.push(event as never));
    rt.on('error', (error) => events.push({ type: 'sdk-error', message: String(error.message) }));
    await until(() => events.some((event) => event.type === 'session.created'), 'session.created');

    rt.send({ type: 'session.update', session: { type: 'realtime', instructions: 'Be brief.' } });
    await until(() => events.some((event) => event.type === 'session.updated'), 'session.updated');
    const updated = events.find((event) => event.type === 'session.updated') as unknown as {
      session: { instructions: string };
    };
    expect(updated.session.instructions).toBe('Be brief.');

    for (const [index, text] of ['Hello', 'Again'].entries()) {
      rt.send({
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
      });
      rt.send({ type: 'response.create' });
      await until(() => events.filter((event) => event.type === 'response.done').length === index + 1, 'done');
    }
    const types = events.map((event) => event.type);
    expect(types).toContain('conversation.item.created');
    expect(types).toContain('response.created');
    expect(types).toContain('response.output_audio_transcript.delta');
    expect(types).toContain('response.output_audio.delta');
    expect(types).toContain('response.output_text.delta');
    expect(types).not.toContain('sdk-error');
    const done = events.filter((event) => event.type === 'response.done') as unknown as Array<{
      response: { usage: RealtimeUsageWire };
    }>;
    // Passed unchanged: the client reads the upstream's usage.
    expect(done[1]!.response.usage).toEqual(SECOND_USAGE);

    // The upstream saw the channel's key and model, never the caller's key.
    const handshake = mock.realtime.handshakes[0]!;
    expect(handshake.path).toBe('/v1/realtime');
    expect(handshake.query.model).toBe(MODEL);
    expect(handshake.headers.authorization).toBe(`Bearer ${REALTIME_KEY}`);
    expect(JSON.stringify(handshake.headers)).not.toContain(key.slice(3));

    rt.close();
    await until(() => mock.realtime.open.size === 0, 'the upstream socket to close');
    await until(async () => (await logsOf(MODEL, 'realtime-sdk')).length === 2, 'two log rows');
    const rows = (await logsOf(MODEL, 'realtime-sdk')).sort((a, b) => a.id - b.id);
    expect(rows.map((row) => row.quota)).toEqual([FIRST_QUOTA, SECOND_QUOTA]);
    expect(rows.map((row) => [row.prompt_tokens, row.completion_tokens])).toEqual([
      [100, 80],
      [210, 105],
    ]);
    const other = JSON.parse(rows[0]!.other ?? '{}') as Record<string, unknown>;
    expect(other).toMatchObject({
      audio_ratio: 8,
      audio_completion_ratio: 2,
      audio_input: 40,
      audio_output: 50,
      cache_tokens: 20,
      cache_ratio: 0.5,
    });
    // The first delta's time is the row's first-token time, as for a streamed chat (-1 would mean none was seen).
    expect(other.frt).toBeGreaterThanOrEqual(0);
    // Settled to the quota, the last reservation refunded: exactly the two responses were charged.
    await until(async () => {
      const after = await balances(server, userId, key);
      return before.token.remain_quota - after.token.remain_quota === FIRST_QUOTA + SECOND_QUOTA;
    }, 'the token charged the two responses');
    const after = await balances(server, userId, key);
    expect(before.user.quota - after.user.quota).toBe(FIRST_QUOTA + SECOND_QUOTA);
  });

  it('refuses a bad key with 401 before any socket, and opens none upstream', async () => {
    const refused = await refusedHandshake(wsUrl(MODEL), { headers: { authorization: 'Bearer sk-not-a-key' } });
    expect(refused.status).toBe(401);
    const browser = await refusedHandshake(wsUrl(MODEL), {
      protocol: undefined,
      headers: { 'sec-websocket-protocol': 'realtime, openai-insecure-api-key.sk-not-a-key' },
    });
    expect(browser.status).toBe(401);
    expect(mock.realtime.handshakes).toHaveLength(0);
    expect(mock.realtime.refused).toBe(0);
  });

  it('refuses a model no channel serves before the upgrade completes', async () => {
    const { key } = await newCaller('realtime-nomodel');
    const refused = await refusedHandshake(wsUrl('no-such-realtime-model'), {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body).error.code).toBe('model_not_found');
    const noModel = await refusedHandshake(wsUrl(''), { headers: { authorization: `Bearer ${key}` } });
    expect(noModel.status).toBe(400);
    expect(mock.realtime.handshakes).toHaveLength(0);
  });

  it("takes the browser's key subprotocol and beta flag, and answers a plain GET with 426", async () => {
    const { key } = await newCaller('realtime-browser');
    const socket = new WebSocket(wsUrl(MODEL), [
      'realtime',
      `openai-insecure-api-key.${key}`,
      'openai-beta.realtime-v1',
    ]);
    const events: Array<{ type: string }> = [];
    socket.on('message', (data) => events.push(JSON.parse(String(data)) as { type: string }));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    // The key's subprotocol is never echoed.
    expect(socket.protocol).toBe('realtime');
    socket.send(JSON.stringify({ type: 'response.create' }));
    await until(() => events.some((event) => event.type === 'response.done'), 'response.done');
    expect(events.map((event) => event.type)).toContain('response.audio.delta');
    expect(mock.realtime.handshakes[0]!.headers['openai-beta']).toBe('realtime=v1');
    socket.close();
    await until(() => mock.realtime.open.size === 0, 'the upstream socket to close');
    expect(mock.realtime.closedWith).toEqual([1000]);

    const plain = await fetch(`${server.baseUrl}/v1/realtime?model=${MODEL}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(plain.status).toBe(426);
  });

  it('bills a client that leaves mid-response what the upstream reported (nothing), never twice', async () => {
    const { key, userId } = await newCaller('realtime-leaver');
    const before = await balances(server, userId, key);
    mock.realtime.deltas = 20;
    mock.realtime.deltaDelayMs = 50;
    const socket = new WebSocket(wsUrl(MODEL), { headers: { authorization: `Bearer ${key}` } });
    let deltas = 0;
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as { type: string };
      if (event.type === 'response.output_text.delta' && ++deltas === 2) socket.close();
    });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'response.create' }));
    await new Promise((resolve) => socket.once('close', resolve));
    await until(() => mock.realtime.open.size === 0, 'the upstream socket to close');
    // The upstream stopped without a response.done: there is nothing to bill, and the reservation is returned.
    expect(mock.realtime.done).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await logsOf(MODEL, 'realtime-leaver')).toHaveLength(0);
    const after = await balances(server, userId, key);
    expect(after.token.remain_quota).toBe(before.token.remain_quota);
    expect(after.user.quota).toBe(before.user.quota);
  });

  it('bills a response the upstream finished as the client left exactly once', async () => {
    const { key, userId } = await newCaller('realtime-late');
    const before = await balances(server, userId, key);
    const socket = new WebSocket(wsUrl(MODEL), { headers: { authorization: `Bearer ${key}` } });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.on('message', (data) => {
      // Closed as the response ends: the done event crosses the close.
      if ((JSON.parse(String(data)) as { type: string }).type === 'response.output_text.delta') socket.close();
    });
    socket.send(JSON.stringify({ type: 'response.create' }));
    await until(() => mock.realtime.open.size === 0 && socket.readyState === WebSocket.CLOSED, 'both closed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The upstream sent the whole response at once, so its done event was on its way when the client left.
    expect(mock.realtime.done).toBe(1);
    const rows = await logsOf(MODEL, 'realtime-late');
    expect(rows).toHaveLength(1);
    const after = await balances(server, userId, key);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(rows.length * FIRST_QUOTA);
  });

  it("closes the client with the upstream's close code", async () => {
    const { key } = await newCaller('realtime-upclose');
    const socket = new WebSocket(wsUrl(MODEL), { headers: { authorization: `Bearer ${key}` } });
    await new Promise((resolve) => socket.once('open', resolve));
    await until(() => mock.realtime.open.size === 1, 'the upstream socket');
    const closed = new Promise<[number, string]>((resolve) =>
      socket.once('close', (code, reason) => resolve([code, reason.toString()])),
    );
    for (const upstream of mock.realtime.open) upstream.close(4000, 'session expired');
    expect(await closed).toEqual([4000, 'session expired']);
  });

  it('ends a session whose quota runs out with an error event and a clean close', async () => {
    // The first reservation (500 × 2) fits, the response costs 2580, and the next reservation no longer fits.
    const { key } = await newCaller('realtime-poor', 3000);
    const socket = new WebSocket(wsUrl(MODEL), { headers: { authorization: `Bearer ${key}` } });
    const events: Array<{ type: string; error?: { code?: string } }> = [];
    socket.on('message', (data) => events.push(JSON.parse(String(data)) as never));
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'response.create' }));
    expect(await closed).toBe(1000);
    const types = events.map((event) => event.type);
    expect(types.indexOf('response.done')).toBeLessThan(types.lastIndexOf('error'));
    expect(events.at(-1)!.error?.code).toBe('insufficient_user_quota');
    await until(() => mock.realtime.open.size === 0, 'the upstream socket to close');
    expect((await logsOf(MODEL, 'realtime-poor')).map((row) => row.quota)).toEqual([FIRST_QUOTA]);
  });

  it("reaches an Azure channel at its realtime URL with the channel's api-key", async () => {
    const { key } = await newCaller('realtime-azure');
    const socket = new WebSocket(wsUrl(AZURE_MODEL), { headers: { authorization: `Bearer ${key}` } });
    const events: Array<{ type: string }> = [];
    socket.on('message', (data) => events.push(JSON.parse(String(data)) as { type: string }));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'response.create' }));
    await until(() => events.some((event) => event.type === 'response.done'), 'response.done');
    const handshake = mock.realtime.handshakes[0]!;
    expect(handshake.path).toBe('/openai/realtime');
    expect(handshake.query).toEqual({ 'api-version': '2024-10-01-preview', deployment: AZURE_DEPLOYMENT });
    expect(handshake.headers['api-key']).toBe(REALTIME_KEY);
    expect(handshake.headers.authorization).toBeUndefined();
    socket.close();
    await until(() => mock.realtime.open.size === 0, 'the upstream socket to close');
    const [row] = await logsOf(AZURE_MODEL, 'realtime-azure');
    expect(row).toMatchObject({ quota: FIRST_QUOTA, channel_id: azureChannel });
    expect(JSON.parse(row!.other ?? '{}').upstream_model_name).toBe(AZURE_DEPLOYMENT);
  });
});
