import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, lastCallLog, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const USAGE = { prompt: 100, completion: 50 };

/**
 * Model-name suffixes and the claude.* / gemini.* option groups, end to end: a client asks for a suffixed name, the
 * channel listing that name (or the family's wildcard for it) serves it, the upstream gets the name without the
 * suffix and what the suffix means in its own wire format, and the bill uses the name the client asked for.
 */
describe('model-name suffixes and provider option groups on the way out', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  const setOption = async (key: string, value: string) => {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.success) throw new Error(saved.message);
  };
  const lastLog = () => lastCallLog(server);
  let claudeChannel: number;
  let openaiChannel: number;
  const upstream = () => mock.requests.at(-1)!;
  const upstreamBody = () => upstream().body as WireJson;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    claudeChannel = await addChannel(root, {
      type: 14,
      key: 'claude-key',
      base_url: mock.baseUrl,
      models: 'claude-3-7-sonnet-20250219-thinking,claude-sonnet-4-20250514,claude-sonnet-4-20250514-thinking-3000',
    });
    await addChannel(root, {
      type: 24,
      key: 'gemini-key',
      base_url: mock.baseUrl,
      models: 'gemini-2.5-flash-thinking-*,gemini-2.5-flash-nothinking,gemini-2.5-flash',
    });
    openaiChannel = await addChannel(root, {
      type: 1,
      key: 'sk-openai',
      base_url: mock.baseUrl,
      models: 'o3-mini-high',
    });
    await priceModels(server, root, {
      'claude-3-7-sonnet-20250219-thinking': 2,
      'claude-sonnet-4-20250514': 1,
      'claude-sonnet-4-20250514-thinking-3000': 1,
      'gemini-2.5-flash-thinking-*': 3,
      'gemini-2.5-flash-nothinking': 1,
      'gemini-2.5-flash': 1,
      'o3-mini-high': 1,
    });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(async () => {
    mock.reset();
    await setOption('claude.thinking_adapter_enabled', 'true');
    await setOption('gemini.thinking_adapter_enabled', 'true');
  });

  it('chat → Claude `-thinking`: thinking at 80% of max tokens, the name without the suffix, billed as asked', async () => {
    mock.enqueue('claude.messages', { kind: 'ok', text: 'Thought it through', reasoning: 'step one', usage: USAGE });
    const answer = await openaiClient(server, key).chat.completions.create({
      model: 'claude-3-7-sonnet-20250219-thinking',
      messages: [{ role: 'user', content: 'Think' }],
      max_tokens: 2000,
      temperature: 0.5,
    });
    expect(answer.choices[0]!.message.content).toBe('Thought it through');
    expect(upstreamBody()).toMatchObject({
      model: 'claude-3-7-sonnet-20250219',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1600 },
    });
    expect(upstreamBody().temperature).toBeUndefined();
    const log = await lastLog();
    expect(log.model_name).toBe('claude-3-7-sonnet-20250219-thinking');
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({
      upstream_model_name: 'claude-3-7-sonnet-20250219',
      model_ratio: 2,
    });
  });

  it('the channel test button sends a suffixed model as the relay does: the name without the suffix, its settings applied', async () => {
    mock.enqueue('claude.messages', { kind: 'ok', text: 'hi', usage: USAGE });
    const claude = (await root.get(
      `/api/channel/test/${claudeChannel}?model=claude-3-7-sonnet-20250219-thinking`,
    )) as unknown as { success: boolean; message: string };
    expect(claude.success, claude.message).toBe(true);
    expect(upstream().path).toBe('/v1/messages');
    // No 16-token test cap: the thinking budget (80 % of the default max tokens) must stay below the limit.
    const thinking = upstreamBody().thinking as { type: string; budget_tokens: number };
    expect(upstreamBody().model).toBe('claude-3-7-sonnet-20250219');
    expect(thinking.type).toBe('enabled');
    expect(thinking.budget_tokens).toBeLessThan(upstreamBody().max_tokens as number);
    expect(thinking.budget_tokens).toBeGreaterThanOrEqual(1024);

    const openai = (await root.get(`/api/channel/test/${openaiChannel}?model=o3-mini-high`)) as unknown as {
      success: boolean;
      message: string;
    };
    expect(openai.success, openai.message).toBe(true);
    expect(upstreamBody()).toMatchObject({ model: 'o3-mini', reasoning_effort: 'high' });
  });

  it('streams the same way; without max tokens the budget is 80% of claude.default_max_tokens', async () => {
    await setOption(
      'claude.default_max_tokens',
      JSON.stringify({ default: 8192, 'claude-3-7-sonnet-20250219': 10000 }),
    );
    mock.enqueue('claude.messages', { kind: 'ok', text: 'streamed', usage: USAGE });
    let text = '';
    const stream = await openaiClient(server, key).chat.completions.create({
      model: 'claude-3-7-sonnet-20250219-thinking',
      messages: [{ role: 'user', content: 'Think' }],
      stream: true,
    });
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('streamed');
    expect(upstreamBody()).toMatchObject({
      model: 'claude-3-7-sonnet-20250219',
      max_tokens: 10000,
      thinking: { type: 'enabled', budget_tokens: 8000 },
    });
  });

  it('`-thinking-<budget>` names the budget; with the adapter off the name goes upstream as it is', async () => {
    mock.enqueue('claude.messages', { kind: 'ok', text: 'ok', usage: USAGE }, { kind: 'ok', text: 'ok', usage: USAGE });
    const client = openaiClient(server, key);
    const ask = {
      model: 'claude-sonnet-4-20250514-thinking-3000',
      messages: [{ role: 'user' as const, content: 'x' }],
    };
    await client.chat.completions.create({ ...ask, max_tokens: 8000 });
    expect(upstreamBody()).toMatchObject({
      model: 'claude-sonnet-4-20250514',
      thinking: { type: 'enabled', budget_tokens: 3000 },
    });
    await setOption('claude.thinking_adapter_enabled', 'false');
    await client.chat.completions.create({ ...ask, max_tokens: 8000 });
    expect(upstreamBody().model).toBe('claude-sonnet-4-20250514-thinking-3000');
    expect(upstreamBody().thinking).toBeUndefined();
  });

  it("Anthropic SDK → Claude: `-thinking` natively, and claude.model_headers_settings joined to the client's flags", async () => {
    await setOption(
      'claude.model_headers_settings',
      JSON.stringify({ 'claude-3-7-sonnet-20250219': { 'anthropic-beta': ['output-128k-2025-02-19'] } }),
    );
    mock.enqueue('claude.messages', { kind: 'ok', text: 'native', usage: USAGE });
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.baseUrl, maxRetries: 0 });
    const message = await anthropic.messages.create(
      {
        model: 'claude-3-7-sonnet-20250219-thinking',
        max_tokens: 4000,
        messages: [{ role: 'user', content: 'Think' }],
      },
      { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } },
    );
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'native' });
    expect(upstreamBody()).toMatchObject({
      model: 'claude-3-7-sonnet-20250219',
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 3200 },
    });
    expect(upstream().headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14,output-128k-2025-02-19');
  });

  it('chat → Gemini `-thinking-<budget>`: served by the wildcard channel, priced by the wildcard, the budget clamped', async () => {
    await setOption('gemini.safety_settings', JSON.stringify({ default: 'BLOCK_ONLY_HIGH' }));
    mock.enqueue('gemini.generate', { kind: 'ok', text: 'gemini thought', usage: USAGE });
    const answer = await openaiClient(server, key).chat.completions.create({
      model: 'gemini-2.5-flash-thinking-90000',
      messages: [{ role: 'user', content: 'Think' }],
    });
    expect(answer.choices[0]!.message.content).toBe('gemini thought');
    expect(upstream().path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(upstreamBody().generationConfig.thinkingConfig).toEqual({ thinkingBudget: 24576, includeThoughts: true });
    expect(upstreamBody().safetySettings).toHaveLength(5);
    expect(upstreamBody().safetySettings[0]).toEqual({
      category: 'HARM_CATEGORY_HARASSMENT',
      threshold: 'BLOCK_ONLY_HIGH',
    });
    const log = await lastLog();
    expect(log.model_name).toBe('gemini-2.5-flash-thinking-90000');
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({ model_ratio: 3, upstream_model_name: 'gemini-2.5-flash' });
  });

  it('Gemini SDK → Gemini `-nothinking`: budget 0 natively, the version from gemini.version_settings', async () => {
    await setOption('gemini.version_settings', JSON.stringify({ default: 'v1beta', 'gemini-2.5-flash': 'v1' }));
    mock.enqueue('gemini.generate', { kind: 'ok', text: 'quick', usage: USAGE });
    const genai = new GoogleGenAI({ apiKey: key.replace(/^sk-/, ''), httpOptions: { baseUrl: server.baseUrl } });
    const answer = await genai.models.generateContent({ model: 'gemini-2.5-flash-nothinking', contents: 'Hi' });
    expect(answer.text).toBe('quick');
    expect(upstream().path).toBe('/v1/models/gemini-2.5-flash:generateContent');
    expect(upstreamBody().generationConfig.thinkingConfig).toEqual({ thinkingBudget: 0 });
    await setOption('gemini.version_settings', JSON.stringify({ default: 'v1beta' }));
  });

  it('with the Gemini adapter off (the family default) the suffixed name goes upstream as it is', async () => {
    await setOption('gemini.thinking_adapter_enabled', 'false');
    mock.enqueue('gemini.generate', { kind: 'ok', text: 'as is', usage: USAGE });
    await openaiClient(server, key).chat.completions.create({
      model: 'gemini-2.5-flash-nothinking',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(upstream().path).toBe('/v1beta/models/gemini-2.5-flash-nothinking:generateContent');
    expect(upstreamBody().generationConfig?.thinkingConfig).toBeUndefined();
  });

  it('chat → OpenAI `o3-mini-high`: reasoning_effort high on o3-mini', async () => {
    mock.enqueue('openai.chat', { kind: 'ok', text: 'reasoned', usage: USAGE });
    await openaiClient(server, key).chat.completions.create({
      model: 'o3-mini-high',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(upstreamBody()).toMatchObject({ model: 'o3-mini', reasoning_effort: 'high' });
    expect((await lastLog()).model_name).toBe('o3-mini-high');
  });
});
