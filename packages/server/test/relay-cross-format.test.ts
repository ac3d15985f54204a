import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// Pairs of client and channel formats that meet only in the hub format: each side's tools, calls and thinking must
// survive two conversions (client → hub → channel and back).
const ON_GEMINI = 'gemini-2.5-flash';
const ON_CLAUDE = 'claude-sonnet-4-20250514';
const lookup = {
  name: 'lookup',
  description: 'Looks a word up',
  schema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
};

describe('tool calls across two conversions (client format ≠ channel format, neither OpenAI)', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 24, key: 'gemini-key', base_url: mock.baseUrl, models: ON_GEMINI });
    await addChannel(root, { type: 14, key: 'sk-ant', base_url: mock.baseUrl, models: ON_CLAUDE });
    await priceModels(server, root, { [ON_GEMINI]: 1, [ON_CLAUDE]: 1 });
    key = await addToken(root, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('a Claude client calls a tool on a Gemini channel: functionDeclarations out, tool_use back', async () => {
    mock.enqueue('gemini.generate', { kind: 'ok', toolCall: { name: 'lookup', arguments: '{"word":"cat"}' } });
    const anthropic = new Anthropic({ apiKey: key, baseURL: server.baseUrl, maxRetries: 0 });
    const message = await anthropic.messages.create({
      model: ON_GEMINI,
      max_tokens: 200,
      tools: [
        {
          name: lookup.name,
          description: lookup.description,
          input_schema: lookup.schema as Anthropic.Tool.InputSchema,
        },
      ],
      messages: [{ role: 'user', content: 'Look up cat' }],
    });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.find((block) => block.type === 'tool_use')).toMatchObject({
      name: 'lookup',
      input: { word: 'cat' },
    });
    const sent = mock.requests[0]!.body as { tools: Array<{ functionDeclarations: unknown[] }> };
    expect(sent.tools[0]!.functionDeclarations).toEqual([
      { name: 'lookup', description: 'Looks a word up', parametersJsonSchema: lookup.schema },
    ]);
  });

  it('a Gemini client calls a function on a Claude channel, streamed: tool_use out, functionCall back', async () => {
    mock.enqueue('claude.messages', { kind: 'ok', toolCall: { name: 'lookup', arguments: '{"word":"dog"}' } });
    const genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.baseUrl } });
    const calls: unknown[] = [];
    for await (const chunk of await genai.models.generateContentStream({
      model: ON_CLAUDE,
      contents: 'Look up dog',
      config: {
        tools: [
          {
            functionDeclarations: [
              { name: lookup.name, description: lookup.description, parametersJsonSchema: lookup.schema },
            ],
          },
        ],
      },
    })) {
      calls.push(...(chunk.functionCalls ?? []));
    }
    expect(calls).toEqual([expect.objectContaining({ name: 'lookup', args: { word: 'dog' } })]);
    const sent = mock.requests[0]!.body as { tools: unknown[] };
    expect(sent.tools).toEqual([{ name: 'lookup', description: 'Looks a word up', input_schema: lookup.schema }]);
  });

  it('a Responses client calls a function on a Claude channel: function_call item back', async () => {
    mock.enqueue('claude.messages', { kind: 'ok', toolCall: { name: 'lookup', arguments: '{"word":"owl"}' } });
    const response = await openaiClient(server, key).responses.create({
      model: ON_CLAUDE,
      input: 'Look up owl',
      tools: [
        { type: 'function', name: 'lookup', description: lookup.description, parameters: lookup.schema, strict: false },
      ],
      store: false,
    });
    expect(response.output.find((item) => item.type === 'function_call')).toMatchObject({
      name: 'lookup',
      arguments: '{"word":"owl"}',
    });
  });
});
