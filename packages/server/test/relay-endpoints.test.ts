import { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, apiError, lastCallLog, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

describe('the other OpenAI endpoints through the gateway (OpenAI SDK)', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  const lastLog = () => lastCallLog(server);

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, {
      type: 1,
      key: 'sk-endpoints',
      base_url: mock.baseUrl,
      models:
        'text-embedding-3-small,gpt-3.5-turbo-instruct,text-moderation-stable,dall-e-3,tts-1,whisper-1,jina-reranker,gpt-4o',
      model_mapping: '{"whisper-1":"whisper-large"}',
    });
    await priceModels(server, root, { 'gpt-3.5-turbo-instruct': 0.75, 'jina-reranker': 0.01 });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('embeddings: billed by the reported prompt tokens', async () => {
    mock.enqueue('openai.embeddings', { kind: 'ok', usage: { prompt: 1000, completion: 0 } });
    const result = await openaiClient(server, key).embeddings.create({
      model: 'text-embedding-3-small',
      input: ['a b', 'c'],
    });
    expect(result.data).toHaveLength(2);
    // 1000 × 0.01 (text-embedding-3-small) = 10
    expect(await lastLog()).toMatchObject({ model_name: 'text-embedding-3-small', prompt_tokens: 1000, quota: 10 });
    expect(mock.requests[0]!.headers.authorization).toBe('Bearer sk-endpoints');
  });

  it('legacy completions, plain and streamed', async () => {
    mock.enqueue('openai.completions', { kind: 'ok', text: 'done', usage: { prompt: 100, completion: 20 } });
    const plain = await openaiClient(server, key).completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'say done',
    });
    expect(plain.choices[0]!.text).toBe('done');
    // (100 + 20 × 1) × 0.75 = 90 (no completion ratio set for this model)
    expect((await lastLog()).quota).toBe(90);
    mock.enqueue('openai.completions', { kind: 'ok', text: 'one two', usage: { prompt: 100, completion: 20 } });
    const stream = await openaiClient(server, key).completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'x',
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe('one two');
    expect(await lastLog()).toMatchObject({ is_stream: 1, quota: 90 });
  });

  it('moderations default to text-moderation-stable', async () => {
    const result = await fetch(`${server.baseUrl}/v1/moderations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'a [flag] b' }),
    }).then((response) => response.json() as Promise<{ results: Array<{ flagged: boolean }> }>);
    expect(result.results[0]!.flagged).toBe(true);
    expect((mock.requests[0]!.body as { model: string }).model).toBe('text-moderation-stable');
  });

  it('images: a fixed price per image, scaled by n, size and quality', async () => {
    const result = await openaiClient(server, key).images.generate({
      model: 'dall-e-3',
      prompt: 'a cat',
      n: 2,
      size: '1024x1024',
    });
    expect(result.data).toHaveLength(2);
    // $0.04 × 500000 × 2 images = 40000
    expect((await lastLog()).quota).toBe(40_000);
    await openaiClient(server, key).images.generate({
      model: 'dall-e-3',
      prompt: 'a cat',
      size: '1792x1024',
      quality: 'hd',
    });
    // $0.04 × 500000 × (size 2 × HD 1.5) = 60000
    expect((await lastLog()).quota).toBe(60_000);
  });

  it('speech: billed by input characters, audio bytes passed through', async () => {
    const response = await openaiClient(server, key).audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hello world',
    });
    const audio = Buffer.from(await response.arrayBuffer());
    expect(audio.length).toBe(32 * 'Hello world'.length);
    // 11 characters × 7.5 (tts-1) = 82.5 → 83
    expect((await lastLog()).quota).toBe(83);
  });

  it('transcriptions and translations: the upload is forwarded with the mapped model', async () => {
    const file = await toFile(Buffer.alloc(64_000, 1), 'speech.mp3', { type: 'audio/mpeg' });
    const text = await openaiClient(server, key).audio.transcriptions.create({
      model: 'whisper-1',
      file,
      response_format: 'verbose_json',
    });
    expect(text.text).toBeTruthy();
    const upstream = mock.requests[0]!.body as { fields: Record<string, string>; files: Array<{ size: number }> };
    expect(upstream.fields.model).toBe('whisper-large');
    expect(upstream.files[0]!.size).toBe(64_000);
    // the mock reports 4 s → 4/60 × 1000 = 66.67 → 67 tokens × 15 (whisper-1) = 1005
    expect(await lastLog()).toMatchObject({ model_name: 'whisper-1', prompt_tokens: 67, quota: 1005 });
    const translation = await openaiClient(server, key).audio.translations.create({
      model: 'whisper-1',
      file: await toFile(Buffer.alloc(16_000, 2), 'a.mp3'),
    });
    expect(translation.text).toBeTruthy();
  });

  it('rerank and responses', async () => {
    const rerank = await fetch(`${server.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'jina-reranker', query: 'q', documents: ['a', 'b'] }),
    }).then((response) => response.json() as Promise<{ results: unknown[] }>);
    expect(rerank.results).toHaveLength(2);
    mock.enqueue('openai.responses', { kind: 'ok', text: 'hi there', usage: { prompt: 100, completion: 10 } });
    const response = await openaiClient(server, key).responses.create({ model: 'gpt-4o', input: 'hello' });
    expect(response.output_text).toBe('hi there');
    // (100 + 10 × 4) × 1.25 = 175
    expect((await lastLog()).quota).toBe(175);
    mock.enqueue('openai.responses', { kind: 'ok', text: 'streamed words', usage: { prompt: 100, completion: 10 } });
    const stream = await openaiClient(server, key).responses.create({ model: 'gpt-4o', input: 'hello', stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('streamed words');
    expect(await lastLog()).toMatchObject({ is_stream: 1, quota: 175 });
  });

  it('refuses an endpoint on a channel type that cannot serve it', async () => {
    await addChannel(root, { type: 14, key: 'c', base_url: mock.baseUrl, models: 'claude-only-embed' });
    await priceModels(server, root, { 'claude-only-embed': 1 });
    const error = await apiError(
      openaiClient(server, key).embeddings.create({ model: 'claude-only-embed', input: 'x' }),
    );
    expect(error.status).toBe(400);
  });
});

describe('channel overrides: parameters, headers, system prompt', () => {
  it('applies them to what the upstream receives', async () => {
    const mock = await startMockUpstream();
    const server = await startTestServer('sqlite');
    try {
      const root = await setupAndLogin(server.baseUrl);
      await addChannel(root, {
        type: 1,
        key: 'sk-over',
        base_url: mock.baseUrl,
        models: 'gpt-4o-mini',
        param_override: '{"temperature": 0.2, "user": "gateway"}',
        header_override: '{"X-Upstream-Key": "{api_key}", "X-Team": "blue"}',
        setting: '{"system_prompt": "Answer in French."}',
      });
      const key = await addToken(root, { unlimited_quota: true });
      await openaiClient(server, key).chat.completions.create({
        model: 'gpt-4o-mini',
        temperature: 0.9,
        messages: [{ role: 'user', content: 'hi' }],
      });
      const upstream = mock.requests[0]!;
      expect(upstream.body).toMatchObject({
        temperature: 0.2,
        user: 'gateway',
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'hi' },
        ],
      });
      expect(upstream.headers['x-upstream-key']).toBe('sk-over');
      expect(upstream.headers['x-team']).toBe('blue');
    } finally {
      await server.close();
      await mock.close();
    }
  });

  it('runs the operations form, refuses by return_error, skips a broken override and passes bodies through', async () => {
    const mock = await startMockUpstream();
    const server = await startTestServer('sqlite');
    try {
      const root = await setupAndLogin(server.baseUrl);
      const operations = [
        { mode: 'move', from: 'max_tokens', to: 'max_completion_tokens' },
        { path: 'X-Route', mode: 'set_header', value: 'ops-{api_key}' },
        {
          mode: 'return_error',
          value: { status_code: 403, code: 'too_long', message: 'max_tokens above 4096 is not allowed here' },
          conditions: [{ path: 'max_completion_tokens', mode: 'gt', value: 4096 }],
        },
      ];
      const ops = await addChannel(root, {
        type: 1,
        key: 'sk-ops',
        base_url: mock.baseUrl,
        models: 'ops-model',
        param_override: JSON.stringify({ operations }),
      });
      await priceModels(server, root, { 'ops-model': 1 });
      const key = await addToken(root, { unlimited_quota: true });
      const client = openaiClient(server, key);
      const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };
      await client.chat.completions.create({ model: 'ops-model', max_tokens: 100, ...ask });
      expect(mock.requests[0]!.body).toMatchObject({ max_completion_tokens: 100 });
      expect(mock.requests[0]!.body).not.toHaveProperty('max_tokens');
      expect(mock.requests[0]!.headers['x-route']).toBe('ops-sk-ops');

      mock.reset();
      const refused = await apiError(client.chat.completions.create({ model: 'ops-model', max_tokens: 9000, ...ask }));
      expect(refused).toMatchObject({ status: 403, message: expect.stringMatching(/above 4096/) });
      expect(mock.requests).toHaveLength(0);

      // A broken override is the channel's fault: the request goes to another channel that can serve it.
      await addChannel(root, {
        type: 1,
        key: 'sk-broken',
        base_url: mock.baseUrl,
        models: 'ops-model',
        priority: 10,
        param_override: '{"operations":[{"path":"x","mode":"explode"}]}',
      });
      await root.put('/api/option/', { key: 'RetryTimes', value: '2' });
      await client.chat.completions.create({ model: 'ops-model', max_tokens: 50, ...ask });
      expect(mock.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-ops']);

      // Pass-through: the client's body exactly, no override, no system prompt, no stream_options added.
      mock.reset();
      await root.put('/api/channel/', {
        ...(await root.get<Record<string, unknown>>(`/api/channel/${ops}`)).data,
        key: '',
        setting: '{"pass_through_body_enabled": true, "system_prompt": "ignored"}',
      });
      const body = { model: 'ops-model', max_tokens: 9000, custom_field: { a: 1 }, ...ask };
      await client.chat.completions.create(body as never);
      expect(mock.requests[0]!.body).toEqual(body);
    } finally {
      await server.close();
      await mock.close();
    }
  });
});

describe('low-quota warning', () => {
  it('mails the user once when a request takes the balance below their threshold', async () => {
    const { startSmtpReceiver } = await import('./helpers/smtp.js');
    const smtp = await startSmtpReceiver();
    const mock = await startMockUpstream();
    const server = await startTestServer('sqlite');
    try {
      const root = await setupAndLogin(server.baseUrl);
      for (const [key, value] of [
        ['SMTPServer', '127.0.0.1'],
        ['SMTPPort', String(smtp.port)],
        ['SMTPFrom', 'gateway@example.com'],
      ]) {
        await root.put('/api/option/', { key, value });
      }
      await addChannel(root, { type: 1, key: 'k', base_url: mock.baseUrl, models: 'gpt-4o' });
      const { signedInUser } = await import('./helpers/client.js');
      const user = await signedInUser(server.baseUrl, server.ctx.repos, 'lowbalance');
      await server.ctx.repos.users.update(user.userId!, { email: 'low@example.com', quota: 105_000 });
      await user.put('/api/user/setting', { notify_type: 'email', quota_warning_threshold: 100_000 });
      const key = await addToken(user, { unlimited_quota: true });
      // Each call costs (1000 + 500 × 4) × 1.25 = 3750: 105000 → 101250 (above), → 97500 (crosses), → 93750 (below).
      for (let index = 0; index < 3; index++) {
        mock.enqueue('openai.chat', { kind: 'ok', usage: { prompt: 1000, completion: 500 } });
        await openaiClient(server, key).chat.completions.create({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'x' }],
        });
      }
      await expect.poll(() => smtp.mails.length, { timeout: 5000 }).toBe(1);
      expect(smtp.mails[0]!.to).toEqual(['low@example.com']);
      expect(smtp.mails[0]!.raw).toContain('Subject:');
    } finally {
      await server.close();
      await mock.close();
      await smtp.close();
    }
  });
});
