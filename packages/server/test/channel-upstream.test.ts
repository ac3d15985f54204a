import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

interface TestAnswer {
  success: boolean;
  message: string;
  time: number;
}

describe('channel test, balance and upstream model list against mock providers', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;

  const createChannel = async (fields: Record<string, unknown>) => {
    const created = await root.post<number[]>('/api/channel/', {
      name: `c-${Math.random().toString(36).slice(2, 8)}`,
      models: 'gpt-4o-mini',
      group: 'default',
      base_url: mock.baseUrl,
      ...fields,
    });
    if (!created.success) throw new Error(created.message);
    return created.data[0]!;
  };
  const channel = async (id: number) => (await server.ctx.repos.channels.findById(id))!;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it.each([
    [
      'OpenAI',
      { type: 1, key: 'sk-openai-upstream' },
      '/v1/chat/completions',
      'authorization',
      'Bearer sk-openai-upstream',
    ],
    [
      'Azure',
      { type: 3, key: 'azure-key', other: '2024-10-21' },
      '/openai/deployments/gpt-4o-mini/chat/completions',
      'api-key',
      'azure-key',
    ],
    [
      'Claude',
      { type: 14, key: 'claude-key', models: 'claude-3-5-haiku-20241022' },
      '/v1/messages',
      'x-api-key',
      'claude-key',
    ],
    [
      'Gemini',
      { type: 24, key: 'gemini-key', models: 'gemini-2.0-flash' },
      '/v1beta/models/gemini-2.0-flash:generateContent',
      'x-goog-api-key',
      'gemini-key',
    ],
    ['Ollama', { type: 4, key: 'unused', models: 'llama3' }, '/v1/chat/completions', 'authorization', 'Bearer unused'],
    [
      'DeepSeek',
      { type: 43, key: 'ds-key', models: 'deepseek-chat' },
      '/v1/chat/completions',
      'authorization',
      'Bearer ds-key',
    ],
  ])(
    'tests a %s channel with the channel key and records the response time',
    async (_name, fields, path, header, value) => {
      const id = await createChannel(fields);
      const answer = (await root.get(`/api/channel/test/${id}`)) as unknown as TestAnswer;
      const raw = await fetch(`${server.baseUrl}/api/channel/test/${id}`, {
        headers: { cookie: root.sessionCookie, 'new-api-user': String(root.userId) },
      }).then((r) => r.json() as Promise<TestAnswer>);
      expect(answer.success).toBe(true);
      expect(raw).toMatchObject({ success: true, message: '' });
      expect(typeof raw.time).toBe('number');
      expect(mock.requests[0]!.path).toBe(path);
      expect(mock.requests[0]!.headers[header]).toBe(value);
      const stored = await channel(id);
      expect(stored.test_time).toBeGreaterThan(0);
      expect(stored.response_time).toBeGreaterThanOrEqual(0);
    },
  );

  it('tests with a chosen model, mapped to the upstream name', async () => {
    const id = await createChannel({
      type: 1,
      key: 'k',
      models: 'gpt-4o,alias',
      model_mapping: '{"alias":"gpt-4o-2024-08-06"}',
    });
    await root.get(`/api/channel/test/${id}?model=alias`);
    expect((mock.requests[0]!.body as { model: string }).model).toBe('gpt-4o-2024-08-06');
  });

  it('auto-disables on an invalid key only when the option and the channel allow it, with the reason', async () => {
    // A fresh install turns auto-disable on: off first, to see the test leave the channel alone.
    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' });
    const id = await createChannel({ type: 1, key: 'invalid-key' });
    const first = await fetch(`${server.baseUrl}/api/channel/test/${id}`, {
      headers: { cookie: root.sessionCookie, 'new-api-user': String(root.userId) },
    }).then((r) => r.json() as Promise<TestAnswer>);
    expect(first.success).toBe(false);
    expect((await channel(id)).status).toBe(1);

    await root.put('/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    const noBan = await createChannel({ type: 1, key: 'invalid-key', auto_ban: 0 });
    await root.get(`/api/channel/test/${noBan}`);
    expect((await channel(noBan)).status).toBe(1);

    await root.get(`/api/channel/test/${id}`);
    const disabled = await channel(id);
    expect(disabled.status).toBe(3);
    expect(JSON.parse(disabled.other_info!).status_reason).toMatch(/Incorrect API key|invalid/i);
    const abilities = await server.ctx.repos.abilities.forChannel(id);
    expect(abilities.every((row) => row.enabled === 0)).toBe(true);
  });

  it('auto-disables on an admin keyword in the upstream message (Claude “credit balance is too low”)', async () => {
    const id = await createChannel({ type: 14, key: 'quota-key', models: 'claude-3-5-haiku-20241022' });
    await root.get(`/api/channel/test/${id}`);
    expect((await channel(id)).status).toBe(3);
  });

  it('re-enables an auto-disabled channel that passes, when automatic enable is on; never a manually disabled one', async () => {
    await root.put('/api/option/', { key: 'AutomaticEnableChannelEnabled', value: 'true' });
    const auto = await createChannel({ type: 1, key: 'good' });
    await server.ctx.channelWriter.setStatus(auto, 3, 'earlier failure');
    await root.get(`/api/channel/test/${auto}`);
    expect((await channel(auto)).status).toBe(1);
    const manual = await createChannel({ type: 1, key: 'good' });
    await root.put('/api/channel/', { id: manual, status: 2 });
    await root.get(`/api/channel/test/${manual}`);
    expect((await channel(manual)).status).toBe(2);
  });

  it('disables a channel slower than the threshold', async () => {
    await root.put('/api/option/', { key: 'ChannelDisableThreshold', value: '0.2' });
    const id = await createChannel({ type: 1, key: 'slow' });
    mock.enqueue('openai.chat', { kind: 'ok', delayMs: 400 });
    await root.get(`/api/channel/test/${id}`);
    expect((await channel(id)).status).toBe(3);
    await root.put('/api/option/', { key: 'ChannelDisableThreshold', value: '5' });
  });

  it('tests all channels in the background and reports progress', async () => {
    const started = await root.get<{ running: boolean }>('/api/channel/test');
    expect(started.success).toBe(true);
    await server.ctx.channelTests.idle();
    const progress = await root.get<{ running: boolean; total: number; done: number; results: unknown[] }>(
      '/api/channel/test/progress',
    );
    expect(progress.data.running).toBe(false);
    expect(progress.data.total).toBeGreaterThan(5);
    expect(progress.data.done).toBe(progress.data.total);
    expect(progress.data.results).toHaveLength(progress.data.total);
  });

  it('says when a type cannot be tested', async () => {
    const id = await createChannel({ type: 2, key: 'mj', models: 'mj_imagine' });
    expect(await root.get(`/api/channel/test/${id}`)).toMatchObject({
      success: false,
      message: '该渠道类型暂不支持测试',
    });
  });

  describe('balances and model lists go through the SSRF-safe client', () => {
    it('refuses the mock on 127.0.0.1 until private addresses are allowed', async () => {
      const id = await createChannel({ type: 43, key: 'ds' });
      const refused = await root.get(`/api/channel/update_balance/${id}`);
      expect(refused.success).toBe(false);
      // One language, the host, and the setting that would allow it.
      expect(refused.message).toBe(
        '已拒绝访问 127.0.0.1：这是内网地址。如需让服务端访问内网上游（模型列表、余额），请 root 用户在「系统设置 → 通用设置」中开启「允许服务端请求访问内网地址」（fetch_setting.allow_private_ip）',
      );
      const english = await root.get(`/api/channel/fetch_models/${id}`, { 'accept-language': 'en' });
      expect(english.message).toMatch(
        /^Refused to reach 127\.0\.0\.1: it is a private address\..*fetch_setting\.allow_private_ip/,
      );
      expect(mock.requests).toHaveLength(0);
      await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
    });

    it.each([
      // The mock reports the value as what is left (OpenAI: limit value+1 minus 100 cents used).
      [1, 'balance.openai', 41, ''],
      [43, 'balance.deepseek', 12, ''],
      // OpenRouter's API lives under /api: its default base URL is https://openrouter.ai/api.
      [20, 'balance.openrouter', 30, '/api'],
      [40, 'balance.siliconflow', 7, ''],
      [25, 'balance.moonshot', 9, ''],
    ] as const)('reads the balance of type %s', async (type, route, value, suffix) => {
      const id = await createChannel({ type, key: 'balance-key', base_url: `${mock.baseUrl}${suffix}` });
      mock.setDefault(route, { kind: 'balance', value });
      const answer = await root.get<{ balance: number }>(`/api/channel/update_balance/${id}`);
      expect(answer.success, answer.message).toBe(true);
      expect(answer.data.balance).toBe(value);
      const expected = value;
      expect((await channel(id)).balance).toBe(expected);
      expect(mock.requests.every((request) => request.headers.authorization === 'Bearer balance-key')).toBe(true);
    });

    it('says balance is not supported for types without a balance API', async () => {
      const id = await createChannel({ type: 14, key: 'k', models: 'claude-3-5-haiku-20241022' });
      expect(await root.get(`/api/channel/update_balance/${id}`)).toMatchObject({
        success: false,
        message: '该渠道类型不支持查询余额',
      });
    });

    it('fetches model lists for OpenAI, Claude, Gemini and Ollama', async () => {
      const cases: Array<[number, string]> = [
        [1, 'gpt-4o'],
        [14, 'claude'],
        [24, 'gemini'],
        [4, 'llama3'],
      ];
      for (const [type, expected] of cases) {
        const result = await root.post<string[]>('/api/channel/fetch_models', {
          base_url: mock.baseUrl,
          type,
          key: 'list-key',
        });
        expect(result.success, `type ${type}: ${result.message}`).toBe(true);
        expect(
          result.data.some((name) => name.startsWith(expected)),
          `type ${type}`,
        ).toBe(true);
      }
      const id = await createChannel({ type: 1, key: 'stored-key' });
      mock.reset();
      expect((await root.get<string[]>(`/api/channel/fetch_models/${id}`)).data).toContain('gpt-4o');
      expect(mock.requests[0]!.headers.authorization).toBe('Bearer stored-key');
    });

    it('needs a key to fetch models for a new channel, and reports upstream errors', async () => {
      expect(await root.post('/api/channel/fetch_models', { base_url: mock.baseUrl, type: 1, key: '' })).toMatchObject({
        success: false,
        message: '请填写密钥',
      });
      const bad = await root.post('/api/channel/fetch_models', { base_url: mock.baseUrl, type: 1, key: 'invalid-key' });
      expect(bad.success).toBe(false);
      expect(bad.message).toMatch(/401/);
    });
  });
});

describe('periodic recovery of auto-disabled channels', () => {
  it('re-tests only auto-disabled channels and brings back the ones that pass, when automatic enable is on', async () => {
    const { recoverAutoDisabledChannels } = await import('../src/jobs/channel-recovery.js');
    const mock = await startMockUpstream();
    const server = await startTestServer('sqlite');
    try {
      const root = await setupAndLogin(server.baseUrl);
      const make = async (key: string) =>
        (
          await root.post<number[]>('/api/channel/', {
            type: 1,
            name: key,
            key,
            base_url: mock.baseUrl,
            models: 'gpt-4o-mini',
            group: 'default',
          })
        ).data[0]!;
      const healed = await make('good-now');
      const stillBad = await make('invalid-key');
      const manual = await make('manual');
      await server.ctx.channelWriter.setStatus(healed, 3, 'was failing');
      await server.ctx.channelWriter.setStatus(stillBad, 3, 'was failing');
      await root.put('/api/channel/', { id: manual, status: 2 });
      expect(await recoverAutoDisabledChannels(server.ctx)).toEqual({ tested: 0, enabled: 0 });
      await root.put('/api/option/', { key: 'AutomaticEnableChannelEnabled', value: 'true' });
      expect(await recoverAutoDisabledChannels(server.ctx)).toEqual({ tested: 2, enabled: 1 });
      const status = async (id: number) => (await server.ctx.repos.channels.findById(id))!.status;
      expect([await status(healed), await status(stillBad), await status(manual)]).toEqual([1, 3, 2]);
      expect(server.ctx.channelCache.candidates('default', 'gpt-4o-mini').map((c) => c.id)).toEqual([healed]);
    } finally {
      await server.close();
      await mock.close();
    }
  });
});
