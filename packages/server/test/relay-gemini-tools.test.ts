import { FunctionCallingConfigMode, GoogleGenAI, Type } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import { addChannel, addToken, balances, lastCallLog, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// A Gemini client (Google's SDK, as Gemini CLI uses it) calling functions on a model that an OpenAI-format channel
// serves: declarations, the model's call and the function's response must cross the conversion both ways.
const MODEL = 'gemini-on-openai';
// Ratio 3, completion ratio 1: (600 + 100) × 3 = 2100 quota per call with this usage.
const USAGE = { prompt: 600, completion: 100 };
const EXPECTED = 2100;

const writeFile = {
  name: 'write_file',
  description: 'Writes text to a file',
  parameters: {
    type: Type.OBJECT,
    properties: { path: { type: Type.STRING }, content: { type: Type.STRING } },
    required: ['path', 'content'],
  },
};

describe('Gemini clients with function calling through an OpenAI-format channel', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;
  let genai: GoogleGenAI;

  const lastLog = () => lastCallLog(server);

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-oa', base_url: mock.baseUrl, models: MODEL });
    await priceModels(server, root, { [MODEL]: 3 });
    key = await addToken(root, { remain_quota: 1_000_000 });
    genai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: server.baseUrl } });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('declares the functions upstream and answers the call as a functionCall part, billed exactly', async () => {
    const before = await balances(server, root.userId!, key);
    mock.enqueue('openai.chat', {
      kind: 'ok',
      toolCall: { name: 'write_file', arguments: '{"path":"n.txt","content":"hi"}' },
      usage: USAGE,
    });
    const answer = await genai.models.generateContent({
      model: MODEL,
      contents: 'Write hi to n.txt',
      config: {
        tools: [{ functionDeclarations: [writeFile] }],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } },
      },
    });
    expect(answer.functionCalls).toEqual([
      expect.objectContaining({ name: 'write_file', args: { path: 'n.txt', content: 'hi' } }),
    ]);
    expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 600, candidatesTokenCount: 100 });
    const sent = mock.requests[0]!.body as { tools: unknown; tool_choice: unknown };
    expect(sent.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'write_file',
          description: 'Writes text to a file',
          parameters: {
            type: 'object',
            properties: { path: { type: 'string' }, content: { type: 'string' } },
            required: ['path', 'content'],
          },
        },
      },
    ]);
    expect(sent.tool_choice).toBe('required');
    const after = await balances(server, root.userId!, key);
    expect(before.user.quota - after.user.quota).toBe(EXPECTED);
    expect((await lastLog()).quota).toBe(EXPECTED);
  });

  it('streams the call whole, then carries the function response back on the next turn', async () => {
    mock.enqueue('openai.chat', {
      kind: 'ok',
      toolCall: { name: 'write_file', arguments: '{"path":"s.txt","content":"yo"}' },
      usage: USAGE,
    });
    const calls: Array<{ name?: string; args?: unknown; id?: string }> = [];
    let usage: { promptTokenCount?: number; candidatesTokenCount?: number } | undefined;
    for await (const chunk of await genai.models.generateContentStream({
      model: MODEL,
      contents: 'Write yo to s.txt',
      config: { tools: [{ functionDeclarations: [writeFile] }] },
    })) {
      calls.push(...(chunk.functionCalls ?? []));
      if (chunk.usageMetadata) usage = chunk.usageMetadata;
    }
    expect(calls).toEqual([expect.objectContaining({ name: 'write_file', args: { path: 's.txt', content: 'yo' } })]);
    expect(usage).toMatchObject({ promptTokenCount: 600, candidatesTokenCount: 100 });
    expect((await lastLog()).quota).toBe(EXPECTED);

    mock.enqueue('openai.chat', { kind: 'ok', text: 'Written.', usage: USAGE });
    const second = await genai.models.generateContent({
      model: MODEL,
      contents: [
        { role: 'user', parts: [{ text: 'Write yo to s.txt' }] },
        { role: 'model', parts: [{ functionCall: { name: 'write_file', args: { path: 's.txt', content: 'yo' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'write_file', response: { written: 2 } } }] },
      ],
      config: { tools: [{ functionDeclarations: [writeFile] }] },
    });
    expect(second.text).toBe('Written.');
    const replay = (mock.requests[1]!.body as { messages: Array<Record<string, unknown>> }).messages;
    const callId = (replay[1]!.tool_calls as Array<{ id: string }>)[0]!.id;
    expect(replay).toEqual([
      { role: 'user', content: 'Write yo to s.txt' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: callId,
            type: 'function',
            function: { name: 'write_file', arguments: '{"path":"s.txt","content":"yo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: callId, content: '{"written":2}' },
    ]);
  });
});
