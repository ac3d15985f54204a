import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, balances, flushBilling, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// OpenAI rows pointed at upstreams that serve only chat completions (vLLM, Ollama, older gateways): the channel's
// `responses_mode` says how `/v1/responses` reaches them. `auto` (the default) switches on the upstream's 404/405.
const AUTO = 'vllm-auto';
const AUTO_405 = 'vllm-405';
const NATIVE = 'vllm-native';
const CHAT = 'vllm-chat';

describe('Responses mode per channel: native, through chat, or auto', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;
  const channels: Record<string, number> = {};

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    for (const [model, setting] of [
      [AUTO, ''],
      [AUTO_405, JSON.stringify({ responses_mode: 'auto' })],
      [NATIVE, JSON.stringify({ responses_mode: 'native' })],
      [CHAT, JSON.stringify({ responses_mode: 'chat' })],
    ] as const) {
      channels[model] = await addChannel(root, {
        type: 1,
        key: 'sk-vllm',
        base_url: mock.baseUrl,
        models: model,
        setting,
      });
    }
    await priceModels(server, root, { [AUTO]: 1, [AUTO_405]: 1, [NATIVE]: 1, [CHAT]: 1 });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.reset();
    // The upstream has no Responses API: vLLM answers an unknown route with 404.
    mock.setDefault('openai.responses', { kind: 'status', status: 404, message: 'Not Found' });
  });

  const paths = () => mock.requests.map((request) => request.path);
  const listed = async (id: number) => {
    const list = await root.get<{ items: Array<{ id: number; responses_via_chat_until?: number }> }>(
      '/api/channel/?p=1&page_size=50',
    );
    return list.data.items.find((channel) => channel.id === id);
  };

  it('auto: the first 404 turns the same request into chat, later requests go straight to chat', async () => {
    const client = openaiClient(server, key);
    const before = await balances(server, root.userId!, key);
    const stream = await client.responses.create({ model: AUTO, input: 'hello there', stream: true });
    let text = '';
    let completed = false;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = true;
    }
    expect(completed).toBe(true);
    expect(text.length).toBeGreaterThan(0);
    expect(paths()).toEqual(['/v1/responses', '/v1/chat/completions']);
    const shown = await listed(channels[AUTO]!);
    expect(shown?.responses_via_chat_until).toBeGreaterThan(Date.now() / 1000 + 3000);

    mock.reset();
    const whole = await client.responses.create({ model: AUTO, input: 'and again' });
    expect(whole.output_text.length).toBeGreaterThan(0);
    expect(paths()).toEqual(['/v1/chat/completions']);
    await flushBilling(server);
    const after = await balances(server, root.userId!, key);
    // Both requests billed once each, by the chat answers' usage.
    expect(before.user.quota - after.user.quota).toBeGreaterThan(0);
  });

  it('auto: a 405 switches too; other failures do not', async () => {
    const client = openaiClient(server, key);
    mock.enqueue('openai.responses', { kind: 'status', status: 500, message: 'upstream broke' });
    await expect(client.responses.create({ model: AUTO_405, input: 'x' })).rejects.toBeInstanceOf(
      OpenAI.InternalServerError,
    );
    expect((await listed(channels[AUTO_405]!))?.responses_via_chat_until).toBeUndefined();
    mock.reset();
    mock.enqueue('openai.responses', { kind: 'status', status: 405, message: 'Method Not Allowed' });
    const answer = await client.responses.create({ model: AUTO_405, input: 'y' });
    expect(answer.status).toBe('completed');
    expect(paths()).toEqual(['/v1/responses', '/v1/chat/completions']);
  });

  it("native: the upstream's 404 is the answer, and nothing is billed", async () => {
    const client = openaiClient(server, key);
    const before = await balances(server, root.userId!, key);
    await expect(client.responses.create({ model: NATIVE, input: 'x' })).rejects.toBeInstanceOf(OpenAI.APIError);
    expect(paths()).toEqual(['/v1/responses']);
    expect((await listed(channels[NATIVE]!))?.responses_via_chat_until).toBeUndefined();
    const after = await balances(server, root.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
  });

  it('chat: never asks the upstream for /responses', async () => {
    const client = openaiClient(server, key);
    const answer = await client.responses.create({ model: CHAT, input: 'converted from the start' });
    expect(answer.object).toBe('response');
    expect(answer.output_text.length).toBeGreaterThan(0);
    expect(paths()).toEqual(['/v1/chat/completions']);
  });
});
