import Anthropic from '@anthropic-ai/sdk';
import { formatPeriodEnd, formatWait, periodBounds } from '@gateway/shared';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin } from './helpers/client.js';
import { mailBody, smtpOptions } from './helpers/mailbox.js';
import { addChannel, addToken, apiError, balances, flushBilling, openaiClient, plainMessage } from './helpers/relay.js';
import { setupTokenOf, startTestServer, type TestServer } from './helpers/server.js';
import { startSmtpReceiver } from './helpers/smtp.js';
import { until } from './helpers/wait.js';
import { INVALID_KEY, type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// gpt-4o: model ratio 1.25, completion ratio 4 (defaults), group default ratio 1. 1000 prompt + 500 completion
// tokens: (1000 + 500 × 4) × 1.25 × 1 = 3750 quota a call.
const USAGE = { prompt: 1000, completion: 500 };
const PER_CALL = 3750;

/** An SDK fetch that counts the requests the SDK really sends (its retries included). */
function countingFetch(): { fetch: typeof fetch; count: () => number } {
  let sent = 0;
  return {
    fetch: (input, init) => {
      sent++;
      return fetch(input, init);
    },
    count: () => sent,
  };
}

describe('a fresh install keeps traffic flowing: one good and two broken channels, 9 of 9 calls answered', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let root: ApiClient;
  let key: string;
  let revoked: number;

  beforeAll(async () => {
    mock = await startMockUpstream();
    smtp = await startSmtpReceiver();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    for (const [option, value] of smtpOptions(smtp.port)) await root.put('/api/option/', { key: option, value });
    await server.ctx.repos.users.update(root.userId!, { email: 'root@example.com' });
    await addChannel(root, { name: 'good', type: 1, key: 'sk-good', base_url: mock.baseUrl, models: 'gpt-4o' });
    revoked = await addChannel(root, {
      name: 'revoked',
      type: 1,
      key: INVALID_KEY,
      base_url: mock.baseUrl,
      models: 'gpt-4o',
    });
    await addChannel(root, {
      name: 'refusing',
      type: 1,
      key: 'sk-x',
      base_url: 'http://127.0.0.1:9',
      models: 'gpt-4o',
    });
    key = await addToken(root, { remain_quota: 1_000_000 });
    mock.setDefault('openai.chat', { kind: 'ok', text: 'fine', usage: USAGE });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
    await smtp?.close();
  });

  it('has the fresh-install defaults: retries on and auto-disable on', () => {
    expect(server.ctx.options.number('RetryTimes')).toBe(3);
    expect(server.ctx.options.bool('AutomaticDisableChannelEnabled')).toBe(true);
  });

  it('answers all 9 calls, disables the revoked channel, tells root and bills exactly 9 calls', async () => {
    const before = await balances(server, root.userId!, key);
    const client = openaiClient(server, key);
    for (let call = 0; call < 9; call++) {
      const answer = await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: `call ${call}` }],
      });
      expect(answer.choices[0]!.message.content).toBe('fine');
    }
    await until(async () => (await server.ctx.repos.channels.findById(revoked))?.status === 3, {
      what: 'the revoked channel auto-disabled',
    });
    const channel = (await server.ctx.repos.channels.findById(revoked))!;
    expect(JSON.parse(channel.other_info!).status_reason).toContain('Incorrect API key');
    await until(() => smtp.mails.length > 0, { what: 'the notice to root' });
    expect(smtp.mails[0]!.raw).toContain('root@example.com');
    expect(mailBody(smtp.mails[0]!)).toContain('revoked');
    // The revoked key was asked at most until the channel left rotation; the good key answered every call.
    const good = mock.requests.filter((request) => request.headers.authorization === 'Bearer sk-good');
    expect(good).toHaveLength(9);
    const after = await balances(server, root.userId!, key);
    expect(before.user.quota - after.user.quota).toBe(9 * PER_CALL);
    expect(after.user.used_quota - before.user.used_quota).toBe(9 * PER_CALL);
    expect(before.token.remain_quota - after.token.remain_quota).toBe(9 * PER_CALL);
    expect(after.token.used_quota - before.token.used_quota).toBe(9 * PER_CALL);
    await flushBilling(server);
    const { items } = await server.ctx.repos.logs.list({ type: 2 }, 0, 20);
    expect(items).toHaveLength(9);
    expect(items.every((log) => log.quota === PER_CALL && log.channel_name === 'good')).toBe(true);
  });

  it('keeps a family database’s options: setup over an existing root seeds nothing', async () => {
    const other = await startTestServer('sqlite');
    try {
      await other.ctx.repos.users.insert({ username: 'familyroot', password: 'x', role: 100 } as never);
      const setup = await new ApiClient(other.baseUrl).post('/api/setup', {
        SelfUseModeEnabled: false,
        DemoSiteEnabled: false,
        setup_token: setupTokenOf(other.baseUrl),
      });
      expect(setup.success).toBe(true);
      expect(other.ctx.options.number('RetryTimes')).toBe(0);
      expect(other.ctx.options.bool('AutomaticDisableChannelEnabled')).toBe(false);
    } finally {
      await other.close();
    }
  });
});

describe('statuses, codes and language the official SDKs read correctly', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite', { MAX_REQUEST_BODY_MB: '1' });
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: INVALID_KEY, base_url: mock.baseUrl, models: 'gpt-4o' });
    await addChannel(root, { type: 14, key: INVALID_KEY, base_url: mock.baseUrl, models: 'claude-3-5-haiku-20241022' });
    await addChannel(root, { type: 24, key: INVALID_KEY, base_url: mock.baseUrl, models: 'gemini-2.0-flash' });
    await addChannel(root, { type: 1, key: 'sk-good', base_url: mock.baseUrl, models: 'gpt-4o-mini' });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body,
    });

  it('an unknown model is a 404 model_not_found in English, and the SDKs do not retry it', async () => {
    const counted = countingFetch();
    const openai = new OpenAI({ apiKey: key, baseURL: `${server.baseUrl}/v1`, fetch: counted.fetch });
    const error = await apiError(
      openai.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.status).toBe(404);
    expect(error.code).toBe('model_not_found');
    expect(plainMessage(error)).toBe('The model no-such-model does not exist or is not available to group default');
    expect(counted.count()).toBe(1);

    const claudeCount = countingFetch();
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.baseUrl, fetch: claudeCount.fetch });
    const claude = await apiError(
      anthropic.messages.create({
        model: 'no-such-model',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(claude.status).toBe(404);
    expect((claude as unknown as { error: { error: { type: string } } }).error.error.type).toBe('not_found_error');
    expect(claudeCount.count()).toBe(1);

    // Claude Code and older SDKs send the key as x-api-key: the same 404.
    const viaHeader = await fetch(`${server.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(viaHeader.status).toBe(404);
    expect(await viaHeader.json()).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: expect.stringMatching(/^The model no-such-model does not exist/) },
    });

    const gemini = await fetch(`${server.baseUrl}/v1beta/models/no-such-model:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBe(404);
    expect(((await gemini.json()) as { error: Record<string, unknown> }).error).toMatchObject({
      code: 404,
      status: 'NOT_FOUND',
    });
  });

  it('speaks the caller’s language when they send one', async () => {
    const zh = new OpenAI({
      apiKey: key,
      baseURL: `${server.baseUrl}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'accept-language': 'zh-CN' },
    });
    const error = await apiError(
      zh.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(plainMessage(error)).toBe('模型 no-such-model 不存在，或分组 default 无权使用它');
  });

  it('a channel whose key the upstream refuses is a 503 for the caller on every route, never a 401', async () => {
    const openai = await apiError(
      openaiClient(server, key).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(openai.status).toBe(503);
    expect(openai.code).toBe('upstream_channel_unavailable');
    expect(plainMessage(openai)).toBe(
      'The upstream channel is unavailable; please try again later or contact the administrator',
    );
    expect(openai.message).not.toContain('API key');

    const anthropic = new Anthropic({ apiKey: key, baseURL: server.baseUrl, maxRetries: 0 });
    const claude = await apiError(
      anthropic.messages.create({
        model: 'claude-3-5-haiku-20241022',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(claude.status).toBe(503);
    expect(claude.message).not.toContain('x-api-key');

    const gemini = await fetch(`${server.baseUrl}/v1beta/models/gemini-2.0-flash:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBe(503);
    const body = (await gemini.json()) as { error: { status: string; message: string } };
    expect(body.error.status).toBe('UNAVAILABLE');
    expect(body.error.message).not.toContain('API key not valid');

    // The admin reads what really happened in the error log.
    await flushBilling(server);
    const { items } = await server.ctx.repos.logs.list({ type: 5 }, 0, 10);
    const details = items.map((log) => JSON.parse(log.other!).admin_info.upstream_detail as string);
    expect(details.some((detail) => detail.includes('HTTP 401') && detail.includes('Incorrect API key'))).toBe(true);
    expect(details.some((detail) => detail.includes('API key not valid'))).toBe(true);
  });

  it('once those channels are disabled, their models answer 503 (channels exist, none can answer), not 404', async () => {
    let statuses = '';
    await until(
      async () => {
        const channels = await Promise.all([1, 2, 3].map((id) => server.ctx.repos.channels.findById(id)));
        statuses = channels.map((channel) => `${channel?.type}:${channel?.status}`).join(',');
        return channels.every((channel) => channel?.status === 3);
      },
      { what: 'the three revoked channels disabled' },
    ).catch((error) => {
      throw new Error(`${error} ${statuses}`);
    });
    await server.ctx.channelCache.reload();
    const error = await apiError(
      openaiClient(server, key).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(error.status).toBe(503);
    expect(error.code).toBe('no_available_channel');
  });

  it('framework refusals come in the route’s shape and language', async () => {
    const bad = await post('/v1/chat/completions', '{"model": ');
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as { error: { message: string; code: string } };
    expect(badBody.error.code).toBe('invalid_json');
    expect(badBody.error.message).toMatch(/^The request body is not valid JSON \(request id: \w+\)$/);

    const badZh = await post('/v1/chat/completions', '{"model": ', { 'accept-language': 'zh-CN' });
    expect(((await badZh.json()) as { error: { message: string } }).error.message).toMatch(/^请求体不是有效的 JSON/);

    const claudeBad = await post('/v1/messages', '{nope');
    expect(claudeBad.status).toBe(400);
    expect(await claudeBad.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });

    const geminiBad = await post('/v1beta/models/gemini-2.0-flash:generateContent', '{nope', {
      'x-goog-api-key': key,
    });
    expect(geminiBad.status).toBe(400);
    expect(await geminiBad.json()).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^The request body is not valid JSON/),
      },
    });

    const wrongType = await post('/v1/chat/completions', '<a/>', { 'content-type': 'application/xml' });
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as { error: { message: string } }).error.message).toMatch(
      /^Unsupported Content-Type: application\/xml; send application\/json/,
    );
    // Text is read (Fastify parses text/plain) and refused as what it is: not a JSON object.
    const text = await post('/v1/chat/completions', 'hello', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
    expect(((await text.json()) as { error: { message: string } }).error.message).toMatch(
      /^Invalid request body: a JSON object is expected/,
    );

    const empty = await post('/v1/chat/completions', '');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toMatch(
      /^The request body is empty/,
    );

    const huge = await post(
      '/v1/chat/completions',
      JSON.stringify({ model: 'gpt-4o', pad: 'x'.repeat(2 * 1024 * 1024) }),
    );
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { message: string } }).error.message).toMatch(
      /^The request body is too large/,
    );

    const unknown = await fetch(`${server.baseUrl}/v1/no-such-route`, { headers: { authorization: `Bearer ${key}` } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /^Invalid URL \(GET \/v1\/no-such-route\)/,
    );

    const wrongMethod = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      headers: { authorization: `Bearer ${key}`, 'accept-language': 'zh-CN' },
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('POST');
    expect(((await wrongMethod.json()) as { error: { message: string } }).error.message).toMatch(
      /^此接口不支持 GET 方法/,
    );
  });

  it('validation messages are one language each', async () => {
    const missing = await apiError(
      openaiClient(server, key).chat.completions.create({ messages: [{ role: 'user', content: 'x' }] } as never),
    );
    expect(missing.status).toBe(400);
    expect(plainMessage(missing)).toBe('Invalid request body: model is required');
    const zh = await post('/v1/chat/completions', JSON.stringify({ messages: [] }), { 'accept-language': 'zh' });
    expect(((await zh.json()) as { error: { message: string } }).error.message).toMatch(
      /^请求体格式错误：缺少 model 字段 /,
    );
  });
});

describe('how a budget refusal writes its wait and reset time', () => {
  it('writes whole minutes, largest units first, in the caller’s language', () => {
    expect(formatWait(8 * 3600 + 52 * 60 + 10, 'en')).toBe('8 h 53 min');
    expect(formatWait(8 * 3600 + 52 * 60 + 10, 'zh')).toBe('8 小时 53 分钟');
    expect(formatWait(30, 'en')).toBe('1 min');
    expect(formatWait(2 * 86400 + 3 * 3600, 'en')).toBe('2 d 3 h');
  });
  it('names the reset time with its zone, and its date when it is more than a day away', () => {
    const day = periodBounds('day', Date.UTC(2031, 4, 14, 12));
    expect(formatPeriodEnd(day.end, day.end - 3600_000)).toMatch(/^00:00 UTC([+-]\d\d:\d\d)?$/);
    const month = periodBounds('month', Date.UTC(2031, 4, 14, 12));
    expect(formatPeriodEnd(month.end, Date.UTC(2031, 4, 14, 12))).toMatch(/^2031-06-01 00:00 UTC/);
  });
});
