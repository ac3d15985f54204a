import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { mailBody, smtpOptions } from './helpers/mailbox.js';
import {
  addChannel,
  addToken,
  apiError,
  balances,
  flushBilling,
  openaiClient,
  plainMessage,
  priceModels,
} from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startSmtpReceiver } from './helpers/smtp.js';

const dialects = await availableDialects();

import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const ask = { messages: [{ role: 'user' as const, content: 'hello there' }] };

describe.each(dialects)('relay: authentication, failover, conversion, disconnects and concurrency on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  describe('authentication refusals, each with its own message', () => {
    beforeAll(async () => {
      await addChannel(root, { type: 1, key: 'up', base_url: mock.baseUrl, models: 'gpt-4o-mini' });
    });

    it('refuses missing, unknown, disabled, expired and exhausted keys with 401', async () => {
      const missing = await fetch(`${server.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(missing.status).toBe(401);
      expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
        /^No API key was provided \(request id: /,
      );
      expect(
        (await apiError(openaiClient(server, 'sk-notakey').chat.completions.create({ model: 'gpt-4o-mini', ...ask })))
          .message,
      ).toMatch(/Invalid API key/);

      const disabledKey = await addToken(root, { name: 'disabled' });
      const list = await root.get<{ items: Array<{ id: number; key: string }> }>('/api/token/?size=100');
      const disabled = list.data.items.find((token) => `sk-${token.key}` === disabledKey)!;
      await root.put('/api/token/?status_only=true', { id: disabled.id, status: 2 });
      expect(
        (await apiError(openaiClient(server, disabledKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask })))
          .message,
      ).toMatch(/This API key is disabled/);

      const expiredKey = await addToken(root, { name: 'expired', expired_time: 1_000 });
      const expired = await apiError(
        openaiClient(server, expiredKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask }),
      );
      expect([expired.status, plainMessage(expired)]).toEqual([401, 'This API key has expired']);

      const emptyKey = await addToken(root, { name: 'empty', remain_quota: 0 });
      expect(
        (await apiError(openaiClient(server, emptyKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask })))
          .message,
      ).toMatch(/This API key has no quota left/);
    });

    it('refuses an IP outside the allow list, a model outside the limits, and a channel pin by a non-admin', async () => {
      const ipKey = await addToken(root, { name: 'ip', allow_ips: '10.1.2.0/24', unlimited_quota: true });
      const ip = await apiError(openaiClient(server, ipKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask }));
      expect([ip.status, plainMessage(ip)]).toEqual([403, 'Your IP address is not allowed to use this API key']);
      const loopbackKey = await addToken(root, { name: 'ip-ok', allow_ips: '127.0.0.0/8\n::1', unlimited_quota: true });
      expect(
        (await openaiClient(server, loopbackKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask })).choices,
      ).toHaveLength(1);

      const limitedKey = await addToken(root, {
        name: 'limited',
        model_limits_enabled: true,
        model_limits: 'gpt-4o',
        unlimited_quota: true,
      });
      const limited = await apiError(
        openaiClient(server, limitedKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask }),
      );
      expect([limited.status, plainMessage(limited)]).toEqual([403, 'This API key may not use the model gpt-4o-mini']);

      const user = await signedInUser(server.baseUrl, server.ctx.repos, 'pinner');
      await server.ctx.repos.users.addQuota(user.userId!, 1_000_000);
      const userKey = await addToken(user, { unlimited_quota: true });
      const pinned = await apiError(
        openaiClient(server, `${userKey}-1`).chat.completions.create({ model: 'gpt-4o-mini', ...ask }),
      );
      expect([pinned.status, plainMessage(pinned)]).toEqual([403, 'Only administrators may choose a channel']);
      expect(
        (await openaiClient(server, userKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask })).choices,
      ).toHaveLength(1);
    });

    it('stops a banned user’s keys at once', async () => {
      const user = await signedInUser(server.baseUrl, server.ctx.repos, 'soon-banned');
      await server.ctx.repos.users.addQuota(user.userId!, 1_000_000);
      const userKey = await addToken(user, { unlimited_quota: true });
      await openaiClient(server, userKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask });
      await server.ctx.repos.users.update(user.userId!, { status: 2 });
      await server.ctx.authCache.dropUser(user.userId!);
      const banned = await apiError(
        openaiClient(server, userKey).chat.completions.create({ model: 'gpt-4o-mini', ...ask }),
      );
      expect([banned.status, plainMessage(banned)]).toEqual([403, 'This user has been banned']);
    });
  });

  describe('failover between channels', () => {
    let primary: number;
    let backup: number;
    beforeAll(async () => {
      primary = await addChannel(root, {
        type: 1,
        key: 'primary-key',
        base_url: mock.baseUrl,
        models: 'failover-model',
        priority: 10,
      });
      backup = await addChannel(root, {
        type: 1,
        key: 'backup-key',
        base_url: mock.baseUrl,
        models: 'failover-model',
        priority: 0,
      });
      await priceModels(server, root, { 'failover-model': 1 });
    });

    it('retries a 5xx on the next tier and logs the chain', async () => {
      await root.put('/api/option/', { key: 'RetryTimes', value: '2' });
      mock.enqueue('openai.chat', { kind: 'status', status: 500, message: 'upstream broke' });
      const answer = await openaiClient(server, key).chat.completions.create({ model: 'failover-model', ...ask });
      expect(answer.choices[0]!.message.content).toContain('mock');
      expect(mock.requests.map((r) => r.headers.authorization)).toEqual(['Bearer primary-key', 'Bearer backup-key']);
      await flushBilling(server);
      const log = (await server.ctx.repos.logs.list({ type: 2 }, 0, 1)).items[0]!;
      expect(JSON.parse(log.other!).admin_info.use_channel).toEqual([String(primary), String(backup)]);
      expect(log.channel_id).toBe(backup);
    });

    it('retries network failures and 429, never a 400, and never the same channel twice', async () => {
      mock.enqueue('openai.chat', { kind: 'reset-before' });
      await openaiClient(server, key).chat.completions.create({ model: 'failover-model', ...ask });
      expect(mock.requests).toHaveLength(2);
      mock.reset();
      mock.enqueue('openai.chat', { kind: 'status', status: 429 }, { kind: 'status', status: 429 });
      const both = await apiError(
        openaiClient(server, key).chat.completions.create({ model: 'failover-model', ...ask }),
      );
      expect(both.status).toBe(429);
      expect(new Set(mock.requests.map((r) => r.headers.authorization)).size).toBe(2);
      mock.reset();
      mock.enqueue('openai.chat', { kind: 'status', status: 400, message: 'bad input' });
      expect(
        (await apiError(openaiClient(server, key).chat.completions.create({ model: 'failover-model', ...ask }))).status,
      ).toBe(400);
      expect(mock.requests).toHaveLength(1);
    });

    it('applies status code mapping before deciding to retry', async () => {
      await root.put('/api/channel/', {
        ...(await root.get<Record<string, unknown>>(`/api/channel/${primary}`)).data,
        key: '',
        status_code_mapping: '{"429":"400"}',
      });
      mock.enqueue('openai.chat', { kind: 'status', status: 429 });
      const mapped = await apiError(
        openaiClient(server, key).chat.completions.create({ model: 'failover-model', ...ask }),
      );
      expect(mapped.status).toBe(400);
      expect(mock.requests).toHaveLength(1);
    });

    it('auto-disables a channel whose key is rejected, serves from the other one and tells root by e-mail', async () => {
      const smtp = await startSmtpReceiver();
      for (const [option, value] of smtpOptions(smtp.port)) await root.put('/api/option/', { key: option, value });
      await server.ctx.repos.users.update(1, { email: 'root@example.com' });
      await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
      mock.enqueue('openai.chat', {
        kind: 'status',
        status: 401,
        message: 'Incorrect API key provided',
        code: 'invalid_api_key',
      });
      const answer = await openaiClient(server, key).chat.completions.create({ model: 'failover-model', ...ask });
      expect(answer.choices).toHaveLength(1);
      await expect.poll(async () => (await server.ctx.repos.channels.findById(primary))!.status).toBe(3);
      await expect.poll(() => smtp.mails.length).toBe(1);
      expect(smtp.mails[0]!.to).toEqual(['root@example.com']);
      // The upstream's words reach the mail as text, never as markup.
      expect(mailBody(smtp.mails[0]!)).toContain(`#${primary}`);
      expect(mailBody(smtp.mails[0]!)).toContain('Incorrect API key provided');
      await smtp.close();
      mock.reset();
      await openaiClient(server, key).chat.completions.create({ model: 'failover-model', ...ask });
      expect(mock.requests.map((r) => r.headers.authorization)).toEqual(['Bearer backup-key']);
      await root.put('/api/option/', { key: 'RetryTimes', value: '0' });
    });
  });

  describe('providers with their own wire format, reached through the OpenAI format', () => {
    beforeAll(async () => {
      await addChannel(root, {
        type: 14,
        key: 'claude-key',
        base_url: mock.baseUrl,
        models: 'claude-3-5-haiku-20241022',
      });
      await addChannel(root, { type: 24, key: 'gemini-key', base_url: mock.baseUrl, models: 'gemini-2.0-flash' });
    });

    it.each(['claude-3-5-haiku-20241022', 'gemini-2.0-flash'])('%s: non-streaming and streaming', async (model) => {
      const client = openaiClient(server, key);
      const plain = await client.chat.completions.create({ model, ...ask, max_tokens: 50 });
      expect(plain.choices[0]!.message.content).toMatch(/mock/);
      expect(plain.usage!.prompt_tokens).toBeGreaterThan(0);
      const stream = await client.chat.completions.create({
        model,
        ...ask,
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: { completion_tokens: number } | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe(plain.choices[0]!.message.content);
      expect(usage?.completion_tokens).toBe(5);
    });

    it('sends Claude the system prompt and max_tokens it requires', async () => {
      await openaiClient(server, key).chat.completions.create({
        model: 'claude-3-5-haiku-20241022',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hi' },
        ],
      });
      const body = mock.requests[0]!.body as { system: string; max_tokens: number; messages: unknown[] };
      expect(body).toMatchObject({ system: 'be brief', max_tokens: 8192 });
      expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    });

    it('serves Anthropic clients on /v1/messages: natively from a Claude channel, converted from an OpenAI one', async () => {
      await addChannel(root, { type: 1, key: 'oa', base_url: mock.baseUrl, models: 'claude-via-openai' });
      await priceModels(server, root, { 'claude-via-openai': 1 });
      // The 1.x SDK sends the key as a Bearer token; Claude Code and older SDKs use x-api-key (tested below).
      const anthropic = new Anthropic({ apiKey: key, baseURL: server.baseUrl, maxRetries: 0 });
      for (const model of ['claude-3-5-haiku-20241022', 'claude-via-openai']) {
        mock.reset();
        const message = await anthropic.messages.create({
          model,
          max_tokens: 100,
          system: 'be brief',
          messages: [{ role: 'user', content: 'hi' }],
        });
        expect(message.type).toBe('message');
        expect((message.content[0] as { text: string }).text).toMatch(/mock/);
        expect(message.usage.output_tokens).toBe(5);
        const stream = anthropic.messages.stream({
          model,
          max_tokens: 100,
          messages: [{ role: 'user', content: 'hi' }],
        });
        let text = '';
        stream.on('text', (delta) => {
          text += delta;
        });
        const final = await stream.finalMessage();
        expect(text).toBe((message.content[0] as { text: string }).text);
        expect(final.usage.output_tokens).toBe(5);
        expect(final.stop_reason).toBe('end_turn');
      }
      const upstreamPaths = mock.requests.map((request) => request.path);
      expect(upstreamPaths).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
      const viaHeader = await fetch(`${server.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'claude-3-5-haiku-20241022',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'hi' }],
        }),
      });
      expect(viaHeader.status).toBe(200);
      const bad = await fetch(`${server.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'sk-wrong', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    });
  });

  describe('a client that leaves mid-stream', () => {
    it('aborts the upstream request and pays exactly for the text produced until then', async () => {
      await addChannel(root, { type: 1, key: 'stream-key', base_url: mock.baseUrl, models: 'stream-model' });
      await priceModels(server, root, { 'stream-model': 1 });
      const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
      mock.enqueue('openai.chat', { kind: 'ok', text: words, chunkDelayMs: 40 });
      // A user of its own: other tests' streams may still be settling on root's balance.
      const user = await signedInUser(server.baseUrl, server.ctx.repos, 'leaver');
      await server.ctx.repos.users.addQuota(user.userId!, 1_000_000);
      const limitedKey = await addToken(user, { name: 'stream', remain_quota: 100_000 });
      const before = await balances(server, user.userId!, limitedKey);
      const controller = new AbortController();
      const stream = await openaiClient(server, limitedKey).chat.completions.create(
        { model: 'stream-model', ...ask, stream: true },
        { signal: controller.signal },
      );
      let received = '';
      try {
        for await (const chunk of stream) {
          received += chunk.choices[0]?.delta?.content ?? '';
          if (received.split(' ').length > 5) controller.abort();
        }
      } catch {
        // aborted on purpose
      }
      await expect.poll(() => mock.requests[0]?.aborted, { timeout: 5000 }).toBe(true);
      // Settlement runs when the aborted upstream read unwinds: wait for its log row.
      const logged = async () => {
        await flushBilling(server);
        return (await server.ctx.repos.logs.list({ type: 2, modelName: 'stream-model' }, 0, 1)).total;
      };
      await expect.poll(logged, { timeout: 5000 }).toBe(1);
      const log = (await server.ctx.repos.logs.list({ type: 2, modelName: 'stream-model' }, 0, 1)).items[0]!;
      const other = JSON.parse(log.other!);
      expect(other.stream_status).toBe('client_disconnected');
      // Billed: prompt counted locally + the words the upstream had produced, at ratio 1, completion ratio 1.
      expect(log.completion_tokens).toBeGreaterThan(0);
      expect(log.completion_tokens).toBeLessThan(40 * 2);
      expect(log.quota).toBe(log.prompt_tokens + log.completion_tokens);
      const after = await balances(server, user.userId!, limitedKey);
      expect(before.token.remain_quota - after.token.remain_quota).toBe(log.quota);
      expect(before.user.quota - after.user.quota).toBe(log.quota);
    });

    it('bills what was produced when the upstream breaks mid-stream', async () => {
      mock.enqueue('openai.chat', { kind: 'reset-after-chunks', chunks: 3 });
      const stream = await openaiClient(server, key).chat.completions.create({
        model: 'stream-model',
        ...ask,
        stream: true,
      });
      let received = '';
      await (async () => {
        for await (const chunk of stream) received += chunk.choices[0]?.delta?.content ?? '';
      })().catch(() => undefined);
      const logged = async () => {
        await flushBilling(server);
        return (await server.ctx.repos.logs.list({ type: 2, modelName: 'stream-model' }, 0, 1)).total;
      };
      await expect.poll(logged, { timeout: 5000 }).toBe(2);
      const log = (await server.ctx.repos.logs.list({ type: 2, modelName: 'stream-model' }, 0, 1)).items[0]!;
      expect(JSON.parse(log.other!).stream_status).toMatch(/^upstream_error/);
      expect(log.completion_tokens).toBeGreaterThan(0);
      expect(received.length).toBeGreaterThan(0);
    });
  });

  describe('concurrency', () => {
    it('never lets 200 concurrent requests spend more than a token holds (quota for exactly 50)', async () => {
      await addChannel(root, { type: 1, key: 'fixed', base_url: mock.baseUrl, models: 'fixed-price-model' });
      // $0.002 per call × 500000 = 1000 quota per request; the token holds 50 000 = 50 requests.
      await root.put('/api/option/', { key: 'ModelPrice', value: JSON.stringify({ 'fixed-price-model': 0.002 }) });
      const limitedKey = await addToken(root, { name: 'fifty', remain_quota: 50_000 });
      const before = await balances(server, root.userId!, limitedKey);
      const client = openaiClient(server, limitedKey);
      const results = await Promise.allSettled(
        Array.from({ length: 200 }, () => client.chat.completions.create({ model: 'fixed-price-model', ...ask })),
      );
      const ok = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter((result) => result.status === 'rejected') as PromiseRejectedResult[];
      expect(ok).toHaveLength(50);
      expect(refused).toHaveLength(150);
      expect(refused.every((result) => [401, 403].includes((result.reason as { status: number }).status))).toBe(true);
      const after = await balances(server, root.userId!, limitedKey);
      expect(after.token.remain_quota).toBe(0);
      expect(after.token.used_quota).toBe(50_000);
      expect(before.user.quota - after.user.quota).toBe(50_000);
      expect(mock.requests).toHaveLength(50);
    });
  });
});

describe('relay guards: sensitive words, model request rate limit, error logs', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'k', base_url: mock.baseUrl, models: 'gpt-4o-mini' });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('refuses a prompt with a sensitive word only when both switches are on', async () => {
    await root.put('/api/option/', { key: 'SensitiveWords', value: 'forbidden thing\nsecret' });
    const client = openaiClient(server, key);
    const prompt = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'tell me the SECRET' }] };
    expect((await client.chat.completions.create(prompt)).choices).toHaveLength(1);
    await root.put('/api/option/', { key: 'CheckSensitiveEnabled', value: 'true' });
    const refused = await apiError(client.chat.completions.create(prompt));
    expect([refused.status, plainMessage(refused)]).toEqual([400, 'The request contains a sensitive word: SECRET']);
    await root.put('/api/option/', { key: 'CheckSensitiveEnabled', value: 'false' });
  });

  it('limits requests per user per window, with group overrides', async () => {
    await root.put('/api/option/', { key: 'ModelRequestRateLimitCount', value: '3' });
    await root.put('/api/option/', { key: 'ModelRequestRateLimitEnabled', value: 'true' });
    const client = openaiClient(server, key);
    const call = () => client.chat.completions.create({ model: 'gpt-4o-mini', ...ask });
    for (let index = 0; index < 3; index++) await call();
    const limited = await apiError(call());
    expect([limited.status, plainMessage(limited)]).toEqual([
      429,
      'Request limit reached: at most 3 requests in 1 minutes',
    ]);
    await root.put('/api/option/', { key: 'ModelRequestRateLimitGroup', value: '{"default":[10,1000]}' });
    expect((await call()).choices).toHaveLength(1);
    await root.put('/api/option/', { key: 'ModelRequestRateLimitEnabled', value: 'false' });
  });

  it('writes a type-5 log when no channel can answer', async () => {
    mock.enqueue('openai.chat', { kind: 'status', status: 500, message: 'the upstream is down' });
    await apiError(openaiClient(server, key).chat.completions.create({ model: 'gpt-4o-mini', ...ask }));
    await flushBilling(server);
    const error = (await server.ctx.repos.logs.list({ type: 5 }, 0, 1)).items[0]!;
    expect(error).toMatchObject({ type: 5, model_name: 'gpt-4o-mini', quota: 0 });
    expect(error.content).toContain('the upstream is down');
    expect(JSON.parse(error.other!).status_code).toBe(500);
  });
});

describe('a channel with several keys', () => {
  it('uses them in turn', async () => {
    const mock = await startMockUpstream();
    const server = await startTestServer('sqlite');
    try {
      const root = await setupAndLogin(server.baseUrl);
      await addChannel(root, {
        mode: 'single',
        type: 1,
        key: 'key-a\nkey-b\nkey-c',
        base_url: mock.baseUrl,
        models: 'gpt-4o-mini',
      });
      const key = await addToken(root, { unlimited_quota: true });
      for (let index = 0; index < 6; index++) {
        await openaiClient(server, key).chat.completions.create({ model: 'gpt-4o-mini', ...ask });
      }
      expect(mock.requests.map((r) => r.headers.authorization)).toEqual([
        'Bearer key-a',
        'Bearer key-b',
        'Bearer key-c',
        'Bearer key-a',
        'Bearer key-b',
        'Bearer key-c',
      ]);
    } finally {
      await server.close();
      await mock.close();
    }
  });
});
