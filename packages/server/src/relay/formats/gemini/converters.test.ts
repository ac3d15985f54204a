import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import type { ChatRequest, ChatResponse } from '../../types.js';
import { omittedTools } from '../openai-chat/omitted-tools.js';
import { openAiPassThrough } from '../openai-chat/stream.js';
import { geminiToOpenAiRequest, openAiToGeminiResponse } from './from-gemini.js';
import { toGeminiRequest } from './request.js';
import { fromGeminiResponse } from './response.js';
import { openAiChunksToGemini } from './stream-native.js';
import { geminiToOpenAi } from './stream-to-openai.js';
import type { GeminiRequest } from './wire.js';

function run(converter: ReturnType<typeof geminiToOpenAi>, payloads: unknown[]) {
  const state = newStreamState();
  let out = '';
  for (const data of payloads) {
    out += converter.push({ data: typeof data === 'string' ? data : JSON.stringify(data) }, state, 3);
  }
  out += converter.end(state);
  const records = out
    .split('\n\n')
    .filter((block) => block.startsWith('data: ') && block !== 'data: [DONE]')
    .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
  return { records, state };
}

describe('Gemini client → hub (OpenAI chat)', () => {
  const request: GeminiRequest = {
    systemInstruction: { parts: [{ text: 'You edit files.' }] },
    tools: [
      {
        functionDeclarations: [
          {
            name: 'write_file',
            description: 'Writes a file',
            parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } }, required: ['path'] },
          },
        ],
      },
    ],
    toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['write_file'] } },
    generationConfig: {
      maxOutputTokens: 500,
      temperature: 0.1,
      responseMimeType: 'application/json',
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    },
    contents: [
      { role: 'user', parts: [{ text: 'Save a' }, { inlineData: { mimeType: 'image/png', data: 'AAA' } }] },
      {
        role: 'model',
        parts: [
          { text: 'planning', thought: true },
          { functionCall: { name: 'write_file', args: { path: 'a' } }, thoughtSignature: 'gsig' },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'write_file', response: { ok: true } } }] },
    ],
  };

  it('carries function declarations, calling mode, calls with ids, responses matched to them, thoughts and JSON mode', () => {
    const chat = geminiToOpenAiRequest(request, 'gpt-4o', false);
    expect(chat.messages).toEqual([
      { role: 'system', content: 'You edit files.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Save a' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'planning',
        reasoning_signature: 'gsig',
        tool_calls: [
          { id: 'call_write_file_0', type: 'function', function: { name: 'write_file', arguments: '{"path":"a"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_write_file_0', content: '{"ok":true}' },
    ]);
    expect(chat.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'write_file',
          description: 'Writes a file',
          // Gemini's capitalised OpenAPI types become JSON Schema's.
          parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
      },
    ]);
    expect(chat.tool_choice).toEqual({ type: 'function', function: { name: 'write_file' } });
    expect(chat.response_format).toEqual({ type: 'json_object' });
    expect(chat).toMatchObject({ max_tokens: 500, temperature: 0.1, reasoning_effort: 'low' });
  });

  it('leaves Google-side tools out, noted for the answer header', () => {
    const converted = geminiToOpenAiRequest(
      { ...request, tools: [{ googleSearch: {} }, ...request.tools!] },
      'm',
      false,
    );
    expect(converted.tools?.map((tool) => tool.function.name)).toEqual(['write_file']);
    expect(omittedTools(converted)).toEqual(['googleSearch']);
  });

  it('answers with functionCall parts (signature on the first call), thoughts and usage with thoughts and cache', () => {
    const answer: ChatResponse = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'hm',
            reasoning_signature: 'sig',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '{"path":"b"}' } },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 50,
        completion_tokens: 30,
        total_tokens: 80,
        prompt_tokens_details: { cached_tokens: 20 },
        completion_tokens_details: { reasoning_tokens: 10 },
      },
    };
    expect(openAiToGeminiResponse(answer, 'gemini-x')).toEqual({
      candidates: [
        {
          index: 0,
          content: {
            role: 'model',
            parts: [
              { text: 'hm', thought: true },
              { functionCall: { id: 'call_1', name: 'write_file', args: { path: 'b' } }, thoughtSignature: 'sig' },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: {
        promptTokenCount: 50,
        candidatesTokenCount: 20,
        totalTokenCount: 80,
        thoughtsTokenCount: 10,
        cachedContentTokenCount: 20,
      },
      modelVersion: 'gemini-x',
    });
  });

  it('streams text as it comes and a function call whole once its arguments are complete', () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const { records } = run(openAiChunksToGemini(openAiPassThrough(true), 'g'), [
      chunk({ role: 'assistant', content: 'Sure' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_9', function: { name: 'write_file', arguments: '{"pa' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"c"}' } }] }),
      chunk({}, 'tool_calls'),
      { choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } },
      '[DONE]',
    ]);
    const parts = records.map(
      (record) => (record.candidates as Array<{ content: { parts: unknown[] } }>)[0]!.content.parts,
    );
    expect(parts).toEqual([
      [{ text: 'Sure' }],
      [{ functionCall: { id: 'call_9', name: 'write_file', args: { path: 'c' } } }],
      [{ text: '' }],
    ]);
    expect(records.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 },
    });
  });
});

describe('hub (OpenAI chat) → Gemini channel', () => {
  const chat: ChatRequest = {
    model: 'gemini-2.5-flash',
    max_tokens: 300,
    reasoning_effort: 'high',
    response_format: { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } },
    tools: [
      { type: 'function', function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object' } } },
    ],
    tool_choice: 'required',
    messages: [
      { role: 'system', content: 'Be exact.' },
      { role: 'user', content: 'find y' },
      {
        role: 'assistant',
        content: null,
        reasoning_signature: 'sig-g',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'lookup', arguments: '{"q":"y"}' } },
          { id: 'call_b', type: 'function', function: { name: 'lookup', arguments: '{"q":"z"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '{"y":1}' },
      { role: 'tool', tool_call_id: 'call_b', content: 'not found' },
    ],
  };

  it('maps tools, calling mode, calls (signature back on the first), results, thinking budget and JSON schema', () => {
    expect(toGeminiRequest(chat)).toEqual({
      systemInstruction: { parts: [{ text: 'Be exact.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'find y' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'lookup', args: { q: 'y' } }, thoughtSignature: 'sig-g' },
            { functionCall: { name: 'lookup', args: { q: 'z' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'lookup', response: { y: 1 } } },
            { functionResponse: { name: 'lookup', response: { content: 'not found' } } },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [{ name: 'lookup', description: 'Looks up', parametersJsonSchema: { type: 'object' } }],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      generationConfig: {
        maxOutputTokens: 300,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object' },
        thinkingConfig: { thinkingBudget: 24_576, includeThoughts: true },
      },
    });
  });

  it('reads function calls, thoughts and their signature, and thinking tokens as reasoning tokens', () => {
    const answer = fromGeminiResponse(
      {
        candidates: [
          {
            finishReason: 'STOP',
            content: {
              parts: [
                { text: 'mull', thought: true },
                { functionCall: { name: 'lookup', args: { q: 'w' } }, thoughtSignature: 'ts' },
              ],
            },
          },
        ],
        usageMetadata: {
          promptTokenCount: 10,
          candidatesTokenCount: 4,
          thoughtsTokenCount: 6,
          cachedContentTokenCount: 2,
        },
      },
      'gemini-2.5-flash',
    );
    expect(answer.choices[0]).toEqual({
      index: 0,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        reasoning_content: 'mull',
        reasoning_signature: 'ts',
        tool_calls: [{ id: 'call_lookup_0', type: 'function', function: { name: 'lookup', arguments: '{"q":"w"}' } }],
      },
    });
    expect(answer.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 10,
      total_tokens: 20,
      prompt_tokens_details: { cached_tokens: 2 },
      completion_tokens_details: { reasoning_tokens: 6 },
    });
  });

  it('streams function calls as whole tool_calls deltas and finishes with tool_calls', () => {
    const { records, state } = run(geminiToOpenAi('g', true), [
      { candidates: [{ content: { parts: [{ text: 'ok ' }] } }] },
      {
        candidates: [
          { content: { parts: [{ functionCall: { name: 'lookup', args: { q: 'v' } } }] }, finishReason: 'STOP' },
        ],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 },
      },
    ]);
    const deltas = records.map(
      (record) => (record.choices as Array<{ delta: unknown; finish_reason: unknown }>)[0] ?? record,
    );
    expect(deltas).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      { index: 0, delta: { content: 'ok ' }, finish_reason: null },
      {
        index: 0,
        delta: {
          tool_calls: [
            { index: 0, id: 'call_lookup_0', type: 'function', function: { name: 'lookup', arguments: '{"q":"v"}' } },
          ],
        },
        finish_reason: null,
      },
      { index: 0, delta: {}, finish_reason: 'tool_calls' },
      expect.objectContaining({ usage: expect.objectContaining({ prompt_tokens: 5, completion_tokens: 2 }) }),
    ]);
    expect(state.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2 });
  });
});
