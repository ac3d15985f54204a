import { describe, expect, it } from 'vitest';
import { ConversionError } from '../../formats/openai-chat/conversion-error.js';
import { newStreamState } from '../../stream/stream-state.js';
import type { ChatRequest } from '../../types.js';
import { toConverseRequest } from './converse-request.js';
import { fromConverseResponse } from './converse-response.js';
import { converseToOpenAi } from './converse-stream.js';
import { bedrockError, exceptionName, refusal } from './errors.js';
import { bedrockKey, modelUrl } from './key.js';
import { bedrockMessagesCall } from './messages.js';
import { bedrockModelId } from './model-ids.js';

const CLAUDE_ID = 'us.anthropic.claude-3-7-sonnet-20250219-v1:0';
const chat = (fields: Partial<ChatRequest>): ChatRequest => ({ model: 'm', messages: [], ...fields });

describe('Bedrock keys, URLs and model ids', () => {
  it.each([
    ['AK|SK|us-east-1', { kind: 'sigv4', accessKeyId: 'AK', secretAccessKey: 'SK', region: 'us-east-1' }],
    ['ABSKkey|eu-west-1', { kind: 'api-key', apiKey: 'ABSKkey', region: 'eu-west-1' }],
    ['AK|SK|TOKEN|us-east-1', null],
    ['AK||us-east-1', null],
    ['just-a-key', null],
  ])('key %s', (key, expected) => {
    expect(bedrockKey(key)).toEqual(expected);
  });

  it.each([
    ['claude-3-5-sonnet-20241022', 'AK|SK|us-west-2', 'us.anthropic.claude-3-5-sonnet-20241022-v2:0'],
    ['claude-3-5-sonnet-20241022', 'AK|SK|eu-central-1', 'anthropic.claude-3-5-sonnet-20241022-v2:0'],
    ['claude-3-7-sonnet-20250219', 'AK|SK|ap-northeast-1', 'apac.anthropic.claude-3-7-sonnet-20250219-v1:0'],
    ['claude-opus-4-20250514', 'AK|SK|eu-west-1', 'anthropic.claude-opus-4-20250514-v1:0'],
    ['claude-sonnet-4-20250514', 'AK|SK|us-gov-west-1', 'anthropic.claude-sonnet-4-20250514-v1:0'],
    ['anthropic.claude-3-haiku-20240307-v1:0', 'AK|SK|eu-west-3', 'eu.anthropic.claude-3-haiku-20240307-v1:0'],
    ['us.anthropic.claude-3-haiku-20240307-v1:0', 'AK|SK|us-east-1', 'us.anthropic.claude-3-haiku-20240307-v1:0'],
    ['nova-pro-v1:0', 'key|us-east-2', 'us.amazon.nova-pro-v1:0'],
    ['meta.llama3-70b-instruct-v1:0', 'AK|SK|us-east-1', 'meta.llama3-70b-instruct-v1:0'],
  ])('%s with key region %s → %s', (model, key, id) => {
    expect(bedrockModelId(model, key)).toBe(id);
  });

  it("puts the id in one path segment, on the region's host or the channel's base URL", () => {
    const channel = { id: 1, type: 33, name: 'b', baseUrl: '', key: 'AK|SK|eu-west-1', other: '', organization: null };
    expect(modelUrl(channel, 'eu.anthropic.claude-3-haiku-20240307-v1:0', 'converse')).toBe(
      'https://bedrock-runtime.eu-west-1.amazonaws.com/model/eu.anthropic.claude-3-haiku-20240307-v1%3A0/converse',
    );
    expect(
      modelUrl(
        { ...channel, baseUrl: 'https://vpce-1.bedrock-runtime.eu-west-1.vpce.amazonaws.com/' },
        'arn:aws:x/y',
        'invoke',
      ),
    ).toBe('https://vpce-1.bedrock-runtime.eu-west-1.vpce.amazonaws.com/model/arn%3Aaws%3Ax%2Fy/invoke');
  });
});

describe('OpenAI chat → Converse', () => {
  it('merges turns, carries tool calls, results, signed reasoning and a PDF', () => {
    const body = toConverseRequest(
      chat({
        messages: [
          { role: 'developer', content: 'Rule one.' },
          { role: 'assistant', content: 'Earlier.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Read this' },
              { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'report_v1.pdf' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            reasoning_content: 'Need the tool.',
            reasoning_signature: 'sig1',
            tool_calls: [{ id: 't1', type: 'function', function: { name: 'look', arguments: '{"q":"x"}' } }],
          },
          { role: 'tool', tool_call_id: 't1', content: 'found' },
          { role: 'user', content: 'and?' },
        ],
        tools: [{ type: 'function', function: { name: 'look', parameters: { type: 'object' } } }],
        tool_choice: { type: 'function', function: { name: 'look' } },
        top_p: 0.9,
      }),
      'meta.llama3-70b-instruct-v1:0',
      8192,
    );
    expect(body).toEqual({
      system: [{ text: 'Rule one.' }],
      messages: [
        { role: 'user', content: [{ text: '...' }] },
        { role: 'assistant', content: [{ text: 'Earlier.' }] },
        {
          role: 'user',
          content: [
            { text: 'Read this' },
            { document: { format: 'pdf', name: 'report v1', source: { bytes: 'JVBERi0=' } } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'Need the tool.', signature: 'sig1' } } },
            { toolUse: { toolUseId: 't1', name: 'look', input: { q: 'x' } } },
          ],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'found' }] } }, { text: 'and?' }],
        },
      ],
      // Not a Claude model: no default max tokens, no extra fields.
      inferenceConfig: { topP: 0.9 },
      toolConfig: {
        tools: [{ toolSpec: { name: 'look', inputSchema: { json: { type: 'object' } } } }],
        toolChoice: { tool: { name: 'look' } },
      },
    });
  });

  it('gives Claude the default max tokens and thinking from a reasoning effort, without sampling', () => {
    const body = toConverseRequest(
      chat({ messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'low', temperature: 0.3, top_k: 5 }),
      CLAUDE_ID,
      8192,
    );
    expect(body.inferenceConfig).toEqual({ maxTokens: 8192 });
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
  });

  it('passes top_k to Claude when it does not think', () => {
    const body = toConverseRequest(
      chat({ messages: [{ role: 'user', content: 'hi' }], top_k: 5, max_tokens: 10 }),
      CLAUDE_ID,
      8192,
    );
    expect(body.inferenceConfig).toEqual({ maxTokens: 10 });
    expect(body.additionalModelRequestFields).toEqual({ top_k: 5 });
  });

  it.each([
    [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }, 'an image by URL'],
    [{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,AA==' } }, 'an image of type image/bmp'],
    [{ type: 'input_audio', input_audio: {} }, 'audio input'],
  ])('refuses %j', (part, what) => {
    const convert = () =>
      toConverseRequest(chat({ messages: [{ role: 'user', content: [part] }] }), 'amazon.nova-pro-v1:0', 8192);
    expect(convert).toThrow(ConversionError);
    expect(convert).toThrow(what);
  });
});

describe('Converse → OpenAI chat', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
  ])('stop reason %s → %s', (stopReason, finish) => {
    expect(fromConverseResponse({ stopReason }, 'm').choices[0]!.finish_reason).toBe(finish);
  });

  it('reads text, reasoning with its signature, tool calls and cached usage', () => {
    const answer = fromConverseResponse(
      {
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'Hmm.', signature: 'sig' } } },
              { text: 'Calling.' },
              { toolUse: { toolUseId: 't1', name: 'look', input: { q: 1 } } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: {
          inputTokens: 10,
          outputTokens: 4,
          totalTokens: 34,
          cacheReadInputTokens: 16,
          cacheWriteInputTokens: 4,
        },
      },
      'claude-3-7-sonnet-20250219',
    );
    expect(answer.choices[0]!.message).toEqual({
      role: 'assistant',
      content: 'Calling.',
      reasoning_content: 'Hmm.',
      reasoning_signature: 'sig',
      tool_calls: [{ id: 't1', type: 'function', function: { name: 'look', arguments: '{"q":1}' } }],
    });
    expect(answer.usage).toEqual({
      prompt_tokens: 30,
      completion_tokens: 4,
      total_tokens: 34,
      prompt_tokens_details: { cached_tokens: 16 },
      cache_creation_tokens: 4,
    });
  });

  it('streams reasoning, text and a tool call; finish with messageStop, usage with metadata', () => {
    const converter = converseToOpenAi('m', true);
    const state = newStreamState();
    const events: Array<[string, unknown]> = [
      ['messageStart', { role: 'assistant' }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Hmm' } } }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig' } } }],
      ['contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Hi' } }],
      ['contentBlockStart', { contentBlockIndex: 2, start: { toolUse: { toolUseId: 't1', name: 'look' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '{"q":' } } }],
      ['contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: '1}' } } }],
      ['contentBlockStop', { contentBlockIndex: 2 }],
      ['messageStop', { stopReason: 'tool_use' }],
      ['metadata', { usage: { inputTokens: 3, outputTokens: 7, cacheReadInputTokens: 2 }, metrics: { latencyMs: 1 } }],
    ];
    let out = events
      .map(([event, data], i) => converter.push({ event, data: JSON.stringify(data) }, state, i))
      .join('');
    out += converter.end(state);
    const chunks = out
      .split('\n\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)));
    const deltas = chunks.filter((chunk) => chunk.choices.length).map((chunk) => chunk.choices[0].delta);
    expect(deltas).toEqual([
      { role: 'assistant', content: '' },
      { reasoning_content: 'Hmm' },
      { reasoning_signature: 'sig' },
      { content: 'Hi' },
      { tool_calls: [{ index: 0, id: 't1', type: 'function', function: { name: 'look', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '1}' } }] },
      {},
    ]);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 });
    expect(out.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(state).toMatchObject({ text: 'HmmHi{"q":1}', firstTokenMs: 1, finishReason: 'tool_calls' });
  });
});

describe('Bedrock errors', () => {
  it.each([
    ['ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'ThrottlingException'],
    ['com.amazonaws.bedrock#ValidationException', 'ValidationException'],
    ['throttlingException', 'ThrottlingException'],
  ])('names %s as %s', (raw, name) => {
    expect(exceptionName(raw)).toBe(name);
  });

  it.each([
    [429, 'ThrottlingException', 429],
    [400, 'ServiceQuotaExceededException', 429],
    [403, 'AccessDeniedException', 403],
    [403, 'UnrecognizedClientException', 401],
    [403, 'InvalidSignatureException', 401],
    [400, 'ValidationException', 400],
    [404, 'ResourceNotFoundException', 404],
    [424, 'ModelErrorException', 502],
    [408, 'ModelTimeoutException', 504],
    [503, 'ServiceUnavailableException', 503],
    [500, 'InternalServerException', 500],
    [418, 'SomethingNewException', 418],
  ])('HTTP %i with x-amzn-ErrorType %s → %i, the exception named in the body', (status, type, mapped) => {
    const answer = refusal(status, '{"message":"m"}', `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`);
    expect(answer.status).toBe(mapped);
    expect(bedrockError(answer.status, answer.text)).toEqual({
      status: mapped,
      message: 'm',
      type: 'aws_error',
      code: type,
    });
  });

  it('leaves a body that is not JSON as it is', () => {
    expect(refusal(502, '<html>bad gateway</html>', 'X')).toEqual({ status: 502, text: '<html>bad gateway</html>' });
    expect(bedrockError(502, '<html>bad gateway</html>').message).toBe('<html>bad gateway</html>');
  });
});

describe('Anthropic Messages → InvokeModel', () => {
  const channel = { id: 1, type: 33, name: 'b', baseUrl: '', key: 'AK|SK|us-west-2', other: '', organization: null };
  const options = {
    get: () => '',
    bool: () => false,
    number: () => 0,
    json: <T>(key: string) =>
      (key === 'claude.model_headers_settings'
        ? { 'claude-3-7-sonnet-20250219': { 'anthropic-beta': ['output-128k-2025-02-19'] } }
        : null) as T,
  };

  it('moves model, stream and the beta flags out of the way, and applies a -thinking suffix', () => {
    const call = bedrockMessagesCall(
      channel,
      { model: 'claude-3-7-sonnet-20250219-thinking', max_tokens: 4000, stream: true, temperature: 1, messages: [] },
      'claude-3-7-sonnet-20250219',
      {
        stream: true,
        headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14, output-128k-2025-02-19' },
        options,
        suffix: {
          kind: 'claude-thinking',
          upstreamModel: 'claude-3-7-sonnet-20250219',
          budget: 2000,
          percentage: 0.8,
          defaultMaxTokens: 8192,
        },
      },
    );
    expect(call.url).toBe(
      'https://bedrock-runtime.us-west-2.amazonaws.com/model/us.anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke-with-response-stream',
    );
    expect(JSON.parse(String(call.body))).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 4000,
      messages: [],
      thinking: { type: 'enabled', budget_tokens: 2000 },
      anthropic_beta: ['interleaved-thinking-2025-05-14', 'output-128k-2025-02-19'],
    });
  });
});
