import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, ROOT, setupAndLogin } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, apiError, balances, flushBilling, lastCallLog, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// gpt-4o: model ratio 1.25, completion ratio 4 (defaults). 1000 prompt + 500 completion tokens:
// (1000 + 500 × 4) × 1.25 × group 1 = 3750 quota.
const USAGE = { prompt: 1000, completion: 500 };
const EXPECTED = 3750;

describe.each(dialects)('chat completions through the gateway (OpenAI SDK, mock upstreams) on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  const lastLog = () => lastCallLog(server);

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-upstream-main', base_url: mock.baseUrl, models: 'gpt-4o,gpt-4o-mini' });
    key = await addToken(root, { remain_quota: 1_000_000 });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('answers a non-streaming chat and bills exactly what the upstream reported', async () => {
    const before = await balances(server, root.userId!, key);
    mock.enqueue('openai.chat', { kind: 'ok', text: 'Bonjour', usage: USAGE });
    const completion = await openaiClient(server, key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(completion.choices[0]!.message.content).toBe('Bonjour');
    expect(completion.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 500 });
    // The upstream got the channel's key and the request, never the user's token.
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer sk-upstream-main');
    expect(JSON.stringify(mock.requests[0]!.headers)).not.toContain(key.slice(3));
    const after = await balances(server, root.userId!, key);
    expect(before.user.quota - after.user.quota).toBe(EXPECTED);
    expect(after.user.used_quota - before.user.used_quota).toBe(EXPECTED);
    expect(after.user.request_count - before.user.request_count).toBe(1);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(EXPECTED);
    expect(after.token.used_quota - before.token.used_quota).toBe(EXPECTED);
    const log = await lastLog();
    expect(log).toMatchObject({
      quota: EXPECTED,
      prompt_tokens: 1000,
      completion_tokens: 500,
      model_name: 'gpt-4o',
      is_stream: 0,
      username: ROOT.username,
    });
    expect(JSON.parse(log.other!)).toMatchObject({
      model_ratio: 1.25,
      completion_ratio: 4,
      group_ratio: 1,
      is_model_mapped: false,
    });
  });

  it('streams, forwarding the usage chunk only when the client asks, and bills the same', async () => {
    const client = openaiClient(server, key);
    for (const includeUsage of [true, false]) {
      mock.reset();
      mock.enqueue('openai.chat', { kind: 'ok', text: 'one two three', usage: USAGE });
      const before = await balances(server, root.userId!, key);
      const stream = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'count' }],
        stream: true,
        ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
      });
      let text = '';
      let usageChunks = 0;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? '';
        if (chunk.usage) usageChunks++;
      }
      expect(text).toBe('one two three');
      expect(usageChunks).toBe(includeUsage ? 1 : 0);
      // Upstream is always asked for usage so billing is exact.
      expect(
        (mock.requests[0]!.body as { stream_options?: { include_usage?: boolean } }).stream_options?.include_usage,
      ).toBe(true);
      const after = await balances(server, root.userId!, key);
      expect(before.user.quota - after.user.quota).toBe(EXPECTED);
      expect((await lastLog()).is_stream).toBe(1);
    }
  });

  it('counts tokens itself when the upstream reports no usage', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'Hello there friend', usage: 'none' });
    await openaiClient(server, key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const log = await lastLog();
    expect(log.completion_tokens).toBe(3);
    // 3 (reply priming) + 3 (per message) + 1 ("hi") with the o200k tokenizer
    expect(log.prompt_tokens).toBe(7);
    expect(JSON.parse(log.other!).local_count).toBe(true);
    // (7 + 3 × 4) × 1.25 = 23.75 → 24
    expect(log.quota).toBe(24);
  });

  it('counts a stream without usage from all of its text, every chunk in order', async () => {
    const text = 'One two three four five six seven eight nine ten, and a comma-separated tail: eleven, twelve.';
    mock.enqueue('openai.chat', { kind: 'ok', text, usage: 'none' });
    await openaiClient(server, key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const whole = (await lastLog()).completion_tokens;
    mock.enqueue('openai.chat', { kind: 'ok', text, usage: 'none' });
    const stream = await openaiClient(server, key).chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let received = '';
    for await (const chunk of stream) received += chunk.choices[0]?.delta?.content ?? '';
    expect(received).toBe(text);
    const log = await lastLog();
    expect(log.is_stream).toBe(1);
    expect(JSON.parse(log.other!).local_count).toBe(true);
    expect(whole).toBeGreaterThan(10);
    expect(log.completion_tokens).toBe(whole);
  });

  it('passes the upstream error through with its status and refunds the reservation', async () => {
    const before = await balances(server, root.userId!, key);
    mock.enqueue('openai.chat', { kind: 'status', status: 400, message: 'bad things', type: 'invalid_request_error' });
    const error = await apiError(
      openaiClient(server, key).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/bad things \(request id: \w+\)/);
    const after = await balances(server, root.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.token.remain_quota).toBe(before.token.remain_quota);
  });

  it('answers 503, not 401, when the upstream refuses the channel’s own key', async () => {
    // Auto-disable (on in a fresh install) would take this file's only gpt-4o channel away: relay-first-hour covers it.
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
    mock.enqueue('openai.chat', {
      kind: 'status',
      status: 401,
      message: 'Incorrect API key provided',
      code: 'invalid_api_key',
    });
    const error = await apiError(
      openaiClient(server, key).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error.status).toBe(503);
    expect(error.code).toBe('upstream_channel_unavailable');
    expect(error.message).not.toContain('Incorrect API key provided');
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
  });

  it('says which group lacks a channel for the model', async () => {
    // Unpriced and unserved: the missing channel is what the caller is told, not the missing price.
    const error = await apiError(
      openaiClient(server, key).chat.completions.create({
        model: 'no-such-model',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error.status).toBe(404);
    expect(error.code).toBe('model_not_found');
    expect(error.message).toContain('The model no-such-model does not exist or is not available to group default');
    await root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'no-such-model': 1 }),
    });
    const missing = await apiError(
      openaiClient(server, key).chat.completions.create({
        model: 'no-such-model',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(missing.status).toBe(404);
    expect(missing.message).toContain('The model no-such-model does not exist or is not available to group default');
  });

  it('lists the models the token can use', async () => {
    const models = await openaiClient(server, key).models.list();
    expect(models.data.map((model) => model.id).sort()).toEqual(['gpt-4o', 'gpt-4o-mini']);
    const one = await openaiClient(server, key).models.retrieve('gpt-4o');
    expect(one.id).toBe('gpt-4o');
  });

  it('answers 501 for OpenAI routes the gateway does not offer', async () => {
    const response = await fetch(`${server.baseUrl}/v1/files`, { headers: { authorization: key } });
    expect(response.status).toBe(501);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('api_not_implemented');
  });
});

describe('playground (/pg/chat/completions with the console session)', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'pg-key', base_url: mock.baseUrl, models: 'gpt-4o', group: 'default,vip' });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  const pg = (body: object, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}/pg/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: root.sessionCookie,
        'new-api-user': String(root.userId),
        ...headers,
      },
      body: JSON.stringify(body),
    });

  it('streams to the signed-in user and bills the user, with no token involved', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'hi from pg', usage: USAGE });
    const before = (await server.ctx.repos.users.findById(root.userId!))!;
    const response = await pg({
      model: 'gpt-4o',
      group: 'vip',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const text = await response.text();
    expect(text).toContain('"content":"hi "');
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    await flushBilling(server);
    const after = (await server.ctx.repos.users.findById(root.userId!))!;
    expect(before.quota - after.quota).toBe(EXPECTED);
    const log = (await server.ctx.repos.logs.list({ type: 2 }, 0, 1)).items[0]!;
    expect(log).toMatchObject({ token_name: 'playground', token_id: 0, group: 'vip', quota: EXPECTED });
    expect((mock.requests.at(-1)!.body as Record<string, unknown>).group).toBeUndefined();
  });

  it('refuses without a session, with an access token, and for a group the user may not use', async () => {
    const anonymous = await fetch(`${server.baseUrl}/pg/chat/completions`, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
    await server.ctx.repos.users.update(root.userId!, { access_token: 'p'.repeat(32) });
    const viaToken = await fetch(`${server.baseUrl}/pg/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: 'p'.repeat(32),
        'new-api-user': String(root.userId),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(viaToken.status).toBe(401);
    const forbidden = await pg({ model: 'gpt-4o', group: 'svip-only', messages: [{ role: 'user', content: 'x' }] });
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: { message: string } }).error.message).toMatch(
      /^You may not use the group svip-only/,
    );
  });
});

describe('OpenAI billing compatibility endpoints', () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => server?.close());

  const get = (path: string, key: string) =>
    fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(
      (r) => r.json() as Promise<Record<string, number>>,
    );

  it('reports the token’s limit and usage in dollars (and cents for usage)', async () => {
    const key = await addToken(root, { remain_quota: 1_000_000 });
    const token = (await server.ctx.repos.tokens.findByKey(key.slice(3)))!;
    await server.ctx.repos.tokens.consume(token.id, 250_000);
    for (const prefix of ['', '/v1']) {
      expect(await get(`${prefix}/dashboard/billing/subscription`, key)).toMatchObject({
        object: 'billing_subscription',
        hard_limit_usd: 2,
        access_until: 0,
      });
      expect(await get(`${prefix}/dashboard/billing/usage`, key)).toEqual({ object: 'list', total_usage: 50 });
    }
    const unlimited = await addToken(root, { unlimited_quota: true });
    expect((await get('/v1/dashboard/billing/subscription', unlimited)).hard_limit_usd).toBe(200);
  });
});
