import AnthropicBedrock from '@anthropic-ai/bedrock-sdk';
import Anthropic from '@anthropic-ai/sdk';
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { addChannel, apiError, balances, priceModels } from './helpers/relay.js';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import {
  BEDROCK_ACCESS_KEY,
  BEDROCK_API_KEY,
  BEDROCK_KEY,
  BEDROCK_REGION,
  BEDROCK_SECRET_KEY,
  startBedrockMock,
} from './mock-upstream/providers/bedrock.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const MODEL = 'claude-3-5-sonnet-20241022';
/** The Bedrock id for MODEL with a us-east-1 key: the mapped id in the `us.` cross-region inference profile. */
const MODEL_ID = 'us.anthropic.claude-3-5-sonnet-20241022-v2:0';
const MODEL_PATH = `/model/${encodeURIComponent(MODEL_ID)}`;
const SIGNED = new RegExp(
  `^AWS4-HMAC-SHA256 Credential=${BEDROCK_ACCESS_KEY}/\\d{8}/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$`,
);
const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('AWS Bedrock (type 33) through the gateway', () => {
  const suite = vendorChatSuite({
    vendor: 'bedrock',
    type: 33,
    key: BEDROCK_KEY,
    model: MODEL,
    replyModel: MODEL_ID,
    start: startBedrockMock,
  });

  const aws = (secretAccessKey = BEDROCK_SECRET_KEY) =>
    new BedrockRuntimeClient({
      region: BEDROCK_REGION,
      endpoint: suite.mock.baseUrl,
      credentials: { accessKeyId: BEDROCK_ACCESS_KEY, secretAccessKey },
      maxAttempts: 1,
      // The runtime client speaks HTTP/2 by default; the mock (like a proxy or VPC endpoint may) speaks HTTP/1.1.
      requestHandler: new NodeHttpHandler(),
    });

  describe("the mock agrees with AWS's own SDKs", () => {
    it('Converse: signature accepted, answer and usage read by @aws-sdk/client-bedrock-runtime', async () => {
      const answer = await aws().send(
        new ConverseCommand({ modelId: MODEL_ID, messages: [{ role: 'user', content: [{ text: 'Say hello' }] }] }),
      );
      expect(answer.output?.message?.content?.[0]?.text).toBe(`Hello from bedrock mock: ${MODEL_ID}`);
      expect(answer.stopReason).toBe('end_turn');
      expect(answer.usage).toMatchObject({ inputTokens: 5, outputTokens: 5, totalTokens: 10 });
      // The SDK sent the id percent-encoded in the path, as the gateway does.
      expect(suite.mock.requests[0]!.path).toBe(`${MODEL_PATH}/converse`);
    });

    it('ConverseStream: the event-stream frames (cut at odd places) decode into the SDK’s events', async () => {
      const answer = await aws().send(
        new ConverseStreamCommand({
          modelId: MODEL_ID,
          messages: [{ role: 'user', content: [{ text: 'Say hello' }] }],
        }),
      );
      let text = '';
      const kinds: string[] = [];
      let usage: unknown;
      for await (const event of answer.stream!) {
        kinds.push(Object.keys(event).find((key) => key !== '$unknown')!);
        text += event.contentBlockDelta?.delta?.text ?? '';
        usage = event.metadata?.usage ?? usage;
      }
      expect(text).toBe(`Hello from bedrock mock: ${MODEL_ID}`);
      expect(kinds[0]).toBe('messageStart');
      expect(kinds.slice(-3)).toEqual(['contentBlockStop', 'messageStop', 'metadata']);
      expect(usage).toMatchObject({ inputTokens: 5, outputTokens: 5 });
    });

    it('InvokeModel and InvokeModelWithResponseStream with Anthropic’s Bedrock body', async () => {
      const body = JSON.stringify({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Say hello' }],
      });
      const whole = await aws().send(
        new InvokeModelCommand({
          modelId: MODEL_ID,
          body,
          contentType: 'application/json',
          accept: 'application/json',
        }),
      );
      expect(JSON.parse(Buffer.from(whole.body).toString())).toMatchObject({
        content: [{ type: 'text', text: `Hello from bedrock mock: ${MODEL_ID}` }],
        usage: { input_tokens: 5, output_tokens: 5 },
      });
      const streamed = await aws().send(
        new InvokeModelWithResponseStreamCommand({ modelId: MODEL_ID, body, contentType: 'application/json' }),
      );
      const types: string[] = [];
      for await (const event of streamed.body!) {
        types.push(JSON.parse(Buffer.from(event.chunk!.bytes!).toString()).type);
      }
      expect(types[0]).toBe('message_start');
      expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    });

    it('refuses a wrong secret and throttles on demand, as exceptions the SDK names', async () => {
      const ask = (text: string, secret?: string) =>
        aws(secret).send(new ConverseCommand({ modelId: MODEL_ID, messages: [{ role: 'user', content: [{ text }] }] }));
      await expect(ask('hi', 'wrong-secret')).rejects.toMatchObject({
        name: 'InvalidSignatureException',
        $metadata: { httpStatusCode: 403 },
      });
      await expect(ask('hi [limit]')).rejects.toMatchObject({
        name: 'ThrottlingException',
        $metadata: { httpStatusCode: 429 },
      });
      // A stream whose first frame is an exception: the SDK throws it as the modeled error.
      await expect(
        (async () => {
          const stream = await aws().send(
            new ConverseStreamCommand({
              modelId: MODEL_ID,
              messages: [{ role: 'user', content: [{ text: '[limit-stream]' }] }],
            }),
          );
          for await (const _event of stream.stream!) {
            // never reached
          }
        })(),
      ).rejects.toMatchObject({ name: 'ThrottlingException' });
    });

    it('@anthropic-ai/bedrock-sdk pointed at the mock: messages.create, whole and streamed', async () => {
      const client = new AnthropicBedrock({
        awsAccessKey: BEDROCK_ACCESS_KEY,
        awsSecretKey: BEDROCK_SECRET_KEY,
        awsRegion: BEDROCK_REGION,
        baseURL: suite.mock.baseUrl,
        maxRetries: 0,
      });
      const message = await client.messages.create({
        model: MODEL_ID,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Say hello' }],
      });
      expect(message.content[0]).toMatchObject({ type: 'text', text: `Hello from bedrock mock: ${MODEL_ID}` });
      const stream = client.messages.stream({
        model: MODEL_ID,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Say hello' }],
      });
      const final = await stream.finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'text', text: `Hello from bedrock mock: ${MODEL_ID}` });
      expect(final.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    });
  });

  describe('what the gateway sends', () => {
    it('a signed Converse call: system, image, sampling and stop in Converse’s shape', async () => {
      await suite.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Say hello' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
            ],
          },
        ],
        temperature: 0.5,
        max_tokens: 100,
        stop: ['END'],
      });
      const request = suite.mock.requests[0]!;
      expect(request.path).toBe(`${MODEL_PATH}/converse`);
      expect(request.headers.authorization).toMatch(SIGNED);
      expect(request.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(request.body as WireJson).toEqual({
        messages: [
          {
            role: 'user',
            content: [{ text: 'Say hello' }, { image: { format: 'png', source: { bytes: PIXEL } } }],
          },
        ],
        system: [{ text: 'Be brief.' }],
        inferenceConfig: { maxTokens: 100, temperature: 0.5, stopSequences: ['END'] },
      });
    });

    it('a tool call round trip, whole: toolConfig out, tool_calls back, the result as a toolResult', async () => {
      const first = await suite.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weather],
        tool_choice: 'required',
      });
      const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      expect(call).toEqual({
        id: 'tooluse_mock1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      });
      expect(first.usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 2 });
      expect((suite.mock.requests[0]!.body as WireJson).toolConfig).toEqual({
        tools: [
          {
            toolSpec: {
              name: 'get_weather',
              description: 'Weather of a city',
              inputSchema: { json: weather.function.parameters },
            },
          },
        ],
        toolChoice: { any: {} },
      });
      const second = await suite.openai.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          first.choices[0]!.message,
          { role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 C' },
        ],
        tools: [weather],
      });
      expect(second.choices[0]!.message.content).toBe(`Hello from bedrock mock: ${MODEL_ID}`);
      expect((suite.mock.requests[1]!.body as WireJson).messages).toEqual([
        { role: 'user', content: [{ text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'tooluse_mock1', name: 'get_weather', input: { city: 'Paris' } } }],
        },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_mock1', content: [{ text: 'Sunny, 21 C' }] } }] },
      ]);
    });

    it('a tool call streamed: toolUse start and input deltas become tool_calls chunks', async () => {
      const stream = await suite.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [weather],
        stream: true,
        stream_options: { include_usage: true },
      });
      let name = '';
      let args = '';
      let id = '';
      let finish: string | null = null;
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        const tool = chunk.choices[0]?.delta.tool_calls?.[0];
        id ||= tool?.id ?? '';
        name += tool?.function?.name ?? '';
        args += tool?.function?.arguments ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(suite.mock.requests[0]!.path).toBe(`${MODEL_PATH}/converse-stream`);
      expect({ id, name, args, finish }).toEqual({
        id: 'tooluse_mock1',
        name: 'get_weather',
        args: '{"city":"Paris"}',
        finish: 'tool_calls',
      });
      expect(usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 2, total_tokens: 8 });
    });

    it('a stream whose first frame is a throttlingException is a 429 before any byte', async () => {
      const error = await apiError(
        suite.openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'Say hello [limit-stream]' }],
          stream: true,
        }),
      );
      expect(error.status).toBe(429);
      expect(error.message).toContain('Rate limit exceeded');
    });

    it('an exception frame mid-stream ends the started stream with an error the SDK throws', async () => {
      const stream = await suite.openai.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Say hello [fail-mid-stream]' }],
        stream: true,
      });
      let text = '';
      const error = await apiError(
        (async () => {
          for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        })(),
      );
      expect(text).toBe('Hello from ');
      // The conveyor's words for an answer cut mid-way (the gateway's default language), never AWS's details.
      expect(error.message).toContain('The upstream service stopped mid-answer');
      expect(error.message).not.toContain('model stopped');
    });
  });

  describe('Anthropic Messages clients (/v1/messages) through InvokeModel', () => {
    let anthropic: Anthropic;
    beforeAll(() => {
      anthropic = new Anthropic({ apiKey: suite.tokenKey, baseURL: suite.server.baseUrl, maxRetries: 0 });
    });

    const spentOn = async (run: () => Promise<void>) => {
      const before = await balances(suite.server, suite.root.userId!, suite.tokenKey);
      await run();
      const after = await balances(suite.server, suite.root.userId!, suite.tokenKey);
      return before.user.quota - after.user.quota;
    };

    it('a whole message: Anthropic’s Bedrock body, the answer untouched, billed 5 + 5 × 2', async () => {
      const spent = await spentOn(async () => {
        const message = await anthropic.messages.create(
          { model: MODEL, max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello' }] },
          { headers: { 'anthropic-beta': 'token-efficient-tools-2025-02-19' } },
        );
        expect(message).toMatchObject({
          id: 'msg_bdrk_mock1',
          content: [{ type: 'text', text: `Hello from bedrock mock: ${MODEL_ID}` }],
          stop_reason: 'end_turn',
          usage: { input_tokens: 5, output_tokens: 5 },
        });
      });
      expect(spent).toBe(15);
      const request = suite.mock.requests[0]!;
      expect(request.path).toBe(`${MODEL_PATH}/invoke`);
      expect(request.headers.authorization).toMatch(SIGNED);
      expect(request.body).toEqual({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 64,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Say hello' }],
        anthropic_beta: ['token-efficient-tools-2025-02-19'],
      });
    });

    it('a stream: chunk frames’ base64 Claude events re-emitted as Claude SSE, billed from them', async () => {
      const spent = await spentOn(async () => {
        const stream = anthropic.messages.stream({
          model: MODEL,
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Say hello' }],
        });
        const events: string[] = [];
        stream.on('streamEvent', (event) => events.push(event.type));
        const final = await stream.finalMessage();
        expect(final.content[0]).toMatchObject({ type: 'text', text: `Hello from bedrock mock: ${MODEL_ID}` });
        expect(final.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
        expect(events[0]).toBe('message_start');
        expect(events.at(-1)).toBe('message_stop');
      });
      expect(spent).toBe(15);
      const request = suite.mock.requests[0]!;
      expect(request.path).toBe(`${MODEL_PATH}/invoke-with-response-stream`);
      expect(request.body).toEqual({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Say hello' }],
      });
    });
  });

  it('a Messages client asking for a model of another family (Nova) is served through Converse, converted', async () => {
    const anthropic = new Anthropic({ apiKey: suite.tokenKey, baseURL: suite.server.baseUrl, maxRetries: 0 });
    await addChannel(suite.root, { type: 33, key: BEDROCK_KEY, base_url: suite.mock.baseUrl, models: 'nova-pro-v1:0' });
    await priceModels(suite.server, suite.root, { 'nova-pro-v1:0': 1 });
    const message = await anthropic.messages.create({
      model: 'nova-pro-v1:0',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from bedrock mock: us.amazon.nova-pro-v1:0' }]);
    expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    expect(suite.mock.requests[0]!.path).toBe(`/model/${encodeURIComponent('us.amazon.nova-pro-v1:0')}/converse`);
  });

  describe('other keys', () => {
    it('a Bedrock API key (`APIKey|Region`) goes as a bearer token; a wrong secret is refused naming the signature', async () => {
      await addChannel(suite.root, {
        type: 33,
        key: `${BEDROCK_API_KEY}|eu-west-1`,
        base_url: suite.mock.baseUrl,
        models: 'claude-3-7-sonnet-20250219',
      });
      await addChannel(suite.root, {
        type: 33,
        key: `${BEDROCK_ACCESS_KEY}|wrong-secret|us-east-1`,
        base_url: suite.mock.baseUrl,
        models: 'amazon.nova-pro-v1:0',
      });
      await priceModels(suite.server, suite.root, { 'claude-3-7-sonnet-20250219': 1, 'amazon.nova-pro-v1:0': 1 });
      const answer = await suite.openai.chat.completions.create({
        model: 'claude-3-7-sonnet-20250219',
        messages: [{ role: 'user', content: 'Say hello' }],
      });
      // An eu-west-1 key: the `eu.` profile of the mapped id.
      expect(answer.choices[0]!.message.content).toBe(
        'Hello from bedrock mock: eu.anthropic.claude-3-7-sonnet-20250219-v1:0',
      );
      expect(suite.mock.requests[0]!.headers.authorization).toBe(`Bearer ${BEDROCK_API_KEY}`);
      const error = await apiError(
        suite.openai.chat.completions.create({
          model: 'amazon.nova-pro-v1:0',
          messages: [{ role: 'user', content: 'Say hello' }],
        }),
      );
      // Bedrock's 403 InvalidSignatureException is a 401 to the conveyor (the channel's key is unusable: retried
      // elsewhere, disabled); a caller is never told 401 for the channel's credentials: a 503 with a generic code, the
      // signature detail for the admin's error log only.
      expect(error).toMatchObject({ status: 503, code: 'upstream_channel_unavailable' });
      expect(error.message).not.toContain('signature');
      // A model id that is no Anthropic name is sent as it is (the us. profile of Nova: the region serves it so).
      expect(suite.mock.requests.at(-1)!.path).toBe(`/model/${encodeURIComponent('us.amazon.nova-pro-v1:0')}/converse`);
    });
  });
});
