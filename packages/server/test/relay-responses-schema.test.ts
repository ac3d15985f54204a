import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupAndLogin } from './helpers/client.js';
import { responseSchemaErrors, streamSchemaErrors } from './helpers/openresponses-schema.js';
import { addChannel, addToken, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';
import type { RouteKey } from './mock-upstream/types.js';

// A Responses client (the official openai SDK) over HTTP, on a chat-only channel, a Claude channel, a Gemini channel
// (the gateway converts) and a native Responses channel (the answer passes through): the Response object and every
// stream event validate against the published Open Responses schema, and the Response repeats what was asked.

interface Channel {
  name: string;
  type: number;
  model: string;
  /** The mock upstream route the channel's answer comes from, per streaming or not. */
  route: (stream: boolean) => RouteKey;
}

const CHANNELS: Channel[] = [
  { name: 'a chat-only channel', type: 43, model: 'deepseek-chat', route: () => 'openai.chat' },
  { name: 'a Claude channel', type: 14, model: 'claude-sonnet-4-5', route: () => 'claude.messages' },
  {
    name: 'a Gemini channel',
    type: 24,
    model: 'gemini-2.5-pro',
    route: (stream) => (stream ? 'gemini.stream' : 'gemini.generate'),
  },
  { name: 'a native Responses channel', type: 1, model: 'gpt-4o', route: () => 'openai.responses' },
];

const shell = {
  type: 'function' as const,
  name: 'shell',
  description: 'Runs a command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  strict: false,
};

/** A request that sets most of what a Response repeats. */
const asked = {
  instructions: 'You are a coding agent.',
  input: [{ role: 'user' as const, content: [{ type: 'input_text' as const, text: 'List the files' }] }],
  tools: [shell],
  tool_choice: { type: 'function' as const, name: 'shell' },
  parallel_tool_calls: false,
  temperature: 0.3,
  top_p: 0.8,
  max_output_tokens: 4096,
  max_tool_calls: 3,
  reasoning: { effort: 'low' as const, summary: 'auto' as const },
  text: { format: { type: 'text' as const } },
  truncation: 'disabled' as const,
  store: false,
  metadata: { case: 'schema' },
  prompt_cache_key: 'cache-1',
  safety_identifier: 'user-hash-1',
};

/** The fields of a Response that repeat the request above, whichever channel served it. */
const repeated = {
  instructions: asked.instructions,
  tool_choice: asked.tool_choice,
  parallel_tool_calls: false,
  temperature: 0.3,
  top_p: 0.8,
  max_output_tokens: 4096,
  max_tool_calls: 3,
  reasoning: asked.reasoning,
  text: asked.text,
  truncation: 'disabled',
  store: false,
  metadata: asked.metadata,
  prompt_cache_key: 'cache-1',
  safety_identifier: 'user-hash-1',
  tools: [expect.objectContaining({ type: 'function', name: 'shell', parameters: shell.parameters })],
};

describe('Responses over HTTP against the published schema', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let client: OpenAI;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    const root = await setupAndLogin(server.baseUrl);
    for (const channel of CHANNELS) {
      await addChannel(root, { type: channel.type, key: 'sk-any', base_url: mock.baseUrl, models: channel.model });
    }
    await priceModels(server, root, Object.fromEntries(CHANNELS.map((channel) => [channel.model, 1])));
    client = openaiClient(server, await addToken(root, { remain_quota: 10_000_000 }));
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const answer = (channel: Channel, stream: boolean) =>
    mock.enqueue(channel.route(stream), {
      kind: 'ok',
      reasoning: 'The user wants a listing.',
      text: 'Running it.',
      toolCall: { name: 'shell', arguments: '{"command":"ls"}' },
      usage: { prompt: 40, completion: 12 },
    });

  describe.each(CHANNELS)('through $name', (channel) => {
    it('answers a whole Response that validates and repeats the request', async () => {
      answer(channel, false);
      const raw = await client.responses.create({ model: channel.model, ...asked }).asResponse();
      expect(raw.status).toBe(200);
      const response = (await raw.json()) as Record<string, unknown>;
      expect(responseSchemaErrors(response)).toEqual([]);
      expect(response).toMatchObject({ ...repeated, object: 'response', status: 'completed', model: channel.model });
      expect(response.completed_at).toEqual(expect.any(Number));
      expect((response.output as Array<{ type: string }>).map((item) => item.type)).toEqual([
        'reasoning',
        'message',
        'function_call',
      ]);
      expect(response.usage).toMatchObject({ input_tokens: 40, output_tokens: 12, total_tokens: 52 });
    });

    it('streams events that each validate, with the request repeated in every lifecycle snapshot', async () => {
      answer(channel, true);
      const stream = await client.responses.create({ model: channel.model, ...asked, stream: true });
      const events: Array<{ type: string; sequence_number: number; response?: unknown }> = [];
      for await (const event of stream) events.push(event);
      expect(streamSchemaErrors(events)).toEqual([]);
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
      const lifecycle = events.filter((event) => event.response !== undefined);
      expect(lifecycle.map((event) => event.type)).toEqual([
        'response.created',
        'response.in_progress',
        'response.completed',
      ]);
      for (const event of lifecycle) {
        expect(responseSchemaErrors(event.response)).toEqual([]);
        expect(event.response).toMatchObject({ ...repeated, model: channel.model });
      }
      const completed = lifecycle.at(-1)!.response as Record<string, unknown>;
      expect(completed).toMatchObject({ status: 'completed', completed_at: expect.any(Number) });
      expect((completed.output as Array<{ type: string }>).map((item) => item.type)).toEqual([
        'reasoning',
        'message',
        'function_call',
      ]);
      expect(completed.usage).toMatchObject({ input_tokens: 40, output_tokens: 12, total_tokens: 52 });
    });
  });
});
