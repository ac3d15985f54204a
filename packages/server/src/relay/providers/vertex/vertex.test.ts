import { generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { optionsWith } from '../../../../test/helpers/options.js';
import type { ModelSuffix } from '../../model-suffix.js';
import { newStreamState } from '../../stream/stream-state.js';
import type { RuntimeChannel } from '../../types.js';
import { GOOGLE_TOKEN_URI, type ServiceAccount, serviceAccountOf } from './account.js';
import { signAssertion } from './assertion.js';
import { claudeChatCall, claudeMessages } from './claude.js';
import { vertexClaudeId } from './claude-models.js';
import { vertexEmbeddings } from './embeddings.js';
import { vertexError } from './errors.js';
import { geminiChatCall, geminiGenerateContent } from './gemini.js';
import { publisherUrl, vertexRegion } from './location.js';
import { vertexProvider } from './provider.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const KEY_FILE = {
  type: 'service_account',
  project_id: 'acme-ai',
  private_key_id: 'abc123',
  private_key: PEM,
  client_email: 'relay@acme-ai.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.example.test/token',
};
const KEY = JSON.stringify(KEY_FILE);

const channel = (fields: Partial<RuntimeChannel> = {}): RuntimeChannel => ({
  id: 1,
  type: 41,
  name: 'vertex',
  baseUrl: '',
  key: KEY,
  other: 'us-east5',
  organization: null,
  ...fields,
});
const body = (call: { body?: string | Buffer }) => JSON.parse(String(call.body)) as WireJson;
const native = { stream: false, headers: {} };

describe('the region a model is served from', () => {
  it.each([
    ['`other` is the region', 'europe-west4', 'gemini-2.5-pro', 'europe-west4'],
    ['no `other`: the global endpoint', '', 'gemini-2.5-pro', 'global'],
    [
      'a map names the model',
      '{"gemini-2.5-pro":"us-central1","default":"asia-east1"}',
      'gemini-2.5-pro',
      'us-central1',
    ],
    [
      "a map's default for another model",
      '{"gemini-2.5-pro":"us-central1","default":"asia-east1"}',
      'gemini-2.0-flash',
      'asia-east1',
    ],
    ['a map without the model or a default: global', '{"gemini-2.5-pro":"us-central1"}', 'gemini-2.0-flash', 'global'],
    ['an unreadable map: global', '{"gemini-2.5-pro":', 'gemini-2.5-pro', 'global'],
  ])('%s', (_name, other, model, region) => {
    expect(vertexRegion(other, model)).toBe(region);
  });
});

describe('publisher URLs', () => {
  it.each([
    [
      'a region has its own host',
      channel(),
      'https://us-east5-aiplatform.googleapis.com/v1/projects/acme-ai/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent',
    ],
    [
      'the global region is served by the plain host',
      channel({ other: 'global' }),
      'https://aiplatform.googleapis.com/v1/projects/acme-ai/locations/global/publishers/google/models/gemini-2.5-pro:generateContent',
    ],
    [
      "the channel's base URL replaces the host",
      channel({ baseUrl: 'https://vertex-psc.internal.example/' }),
      'https://vertex-psc.internal.example/v1/projects/acme-ai/locations/us-east5/publishers/google/models/gemini-2.5-pro:generateContent',
    ],
    [
      'an API key (express mode) has no project',
      channel({ key: 'AQ.express-key', other: 'global' }),
      'https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-2.5-pro:generateContent',
    ],
  ])('%s', (_name, target, url) => {
    expect(publisherUrl(target, 'google', 'gemini-2.5-pro', 'generateContent')).toBe(url);
  });

  it('keeps the @ of a Vertex Claude id and escapes what would leave the path', () => {
    expect(publisherUrl(channel(), 'anthropic', 'claude-sonnet-4@20250514', 'rawPredict')).toMatch(
      /\/publishers\/anthropic\/models\/claude-sonnet-4@20250514:rawPredict$/,
    );
    expect(publisherUrl(channel(), 'google', '../x?y', 'generateContent')).toMatch(/\/models\/\.\.%2Fx%3Fy:/);
  });
});

describe('Claude model names → Vertex ids', () => {
  it.each([
    ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-v2@20241022'],
    ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet@20250219'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4@20250514'],
    ['claude-opus-4-1-20250805', 'claude-opus-4-1@20250805'],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5@20251001'],
    ['claude-sonnet-4@20250514', 'claude-sonnet-4@20250514'],
    ['claude-future-model', 'claude-future-model'],
  ])('%s → %s', (model, id) => {
    expect(vertexClaudeId(model)).toBe(id);
  });
});

describe('the service account', () => {
  it('reads the key file, defaulting the token endpoint to Google’s', () => {
    const account = serviceAccountOf(JSON.stringify({ ...KEY_FILE, token_uri: undefined })) as ServiceAccount;
    expect(account).toMatchObject({
      clientEmail: 'relay@acme-ai.iam.gserviceaccount.com',
      privateKeyId: 'abc123',
      projectId: 'acme-ai',
      tokenUri: GOOGLE_TOKEN_URI,
    });
    expect(account.quotaProjectId).toBeUndefined();
  });

  it.each([
    [
      'not JSON',
      '{"client_email": ',
      'the Vertex AI channel key is not valid JSON (paste the whole service-account key file)',
    ],
    [
      'fields missing',
      JSON.stringify({ client_email: 'a@b', private_key: PEM }),
      'the Vertex AI service-account key has no project_id',
    ],
    [
      'a private key that is no PEM',
      JSON.stringify({
        ...KEY_FILE,
        private_key: '-----BEGIN PRIVATE KEY-----\nsecret-bytes\n-----END PRIVATE KEY-----\n',
      }),
      'the private_key of the Vertex AI service-account key is not a readable PEM private key',
    ],
  ])('names what is wrong with a key (%s), never quoting it', (_name, key, problem) => {
    expect(serviceAccountOf(key)).toEqual({ problem });
  });

  it('signs an RS256 assertion the public key verifies, for the token endpoint the key names', () => {
    const account = serviceAccountOf(KEY) as ServiceAccount;
    const jwt = signAssertion(account, 1_700_000_000);
    const [header = '', claims = '', signature = ''] = jwt.split('.');
    const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as WireJson;
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'abc123' });
    expect(decode(claims)).toEqual({
      iss: 'relay@acme-ai.iam.gserviceaccount.com',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: 'https://oauth2.example.test/token',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    expect(verify('sha256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(
      true,
    );
  });
});

describe('Claude on Anthropic’s publisher', () => {
  it('converts chat to a Messages body with Vertex’s version and no model, tools and system included', async () => {
    const call = claudeChatCall(
      channel(),
      {
        model: 'claude-3-7-sonnet-20250219',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
        tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
        max_tokens: 100,
        stream: true,
      },
      await optionsWith({
        'claude.model_headers_settings': '{"claude-3-7-sonnet-20250219":{"anthropic-beta":["x-1"]}}',
      }),
    );
    expect(call.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/acme-ai/locations/us-east5/publishers/anthropic/models/claude-3-7-sonnet@20250219:streamRawPredict',
    );
    expect(call.headers).toEqual({ 'content-type': 'application/json', 'anthropic-beta': 'x-1' });
    expect(body(call)).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }],
      max_tokens: 100,
      system: 'Be brief.',
      stream: true,
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    });
  });

  it('serves Messages clients: the body as sent without its model, the thinking a suffix asks for', () => {
    const suffix: ModelSuffix = {
      kind: 'claude-thinking',
      upstreamModel: 'claude-sonnet-4-20250514',
      budget: 2048,
      percentage: 0.8,
      defaultMaxTokens: 8192,
    };
    const call = claudeMessages.call(
      channel({ other: '{"claude-sonnet-4-20250514":"europe-west1"}' }),
      { model: 'claude-sonnet-4-20250514-thinking', max_tokens: 4096, messages: [{ role: 'user', content: 'hi' }] },
      'claude-sonnet-4-20250514',
      { stream: false, headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'b-1' }, suffix },
    );
    expect(call.url).toMatch(
      /\/locations\/europe-west1\/publishers\/anthropic\/models\/claude-sonnet-4@20250514:rawPredict$/,
    );
    expect(call.headers).toEqual({ 'content-type': 'application/json', 'anthropic-beta': 'b-1' });
    expect(body(call)).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'hi' }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
  });

  it('serves only Claude models through Messages natively (a Gemini model goes through chat)', () => {
    expect(claudeMessages.serves?.('gemini-2.5-pro')).toBe(false);
    expect(claudeMessages.serves?.('claude-sonnet-4-20250514')).toBe(true);
  });
});

describe('Gemini on Google’s publisher', () => {
  it('converts chat to generateContent with the safety settings, streamed as SSE', () => {
    const call = geminiChatCall(channel(), {
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 50,
      stream: true,
    });
    expect(call.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/acme-ai/locations/us-east5/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
    expect(body(call)).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { maxOutputTokens: 50 },
    });
    expect(body(call).safetySettings).toHaveLength(5);
  });

  it('serves Gemini clients: the body as sent, with the thinking budget a suffix asks for', () => {
    const suffix: ModelSuffix = {
      kind: 'gemini-thinking',
      upstreamModel: 'gemini-2.5-flash',
      budget: 1024,
      percentage: 0.6,
    };
    const call = geminiGenerateContent.call(
      channel(),
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      'gemini-2.5-flash',
      { ...native, suffix },
    );
    expect(call.url).toMatch(/\/models\/gemini-2\.5-flash:generateContent$/);
    expect(body(call)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
    });
  });

  it('serves only Gemini models through generateContent natively (a Claude model goes through chat)', () => {
    expect(geminiGenerateContent.serves?.('claude-sonnet-4-20250514')).toBe(false);
    expect(geminiGenerateContent.serves?.('gemini-2.5-flash')).toBe(true);
  });
});

describe('answers by publisher', () => {
  const chat = vertexProvider.functions.chat!;

  it('reads a Claude answer and a Gemini answer by the model’s name', () => {
    const claude = chat.answer(
      {
        id: 'msg_vrtx_1',
        type: 'message',
        content: [{ type: 'text', text: 'Hi' }],
        stop_reason: 'max_tokens',
        usage: { input_tokens: 3, output_tokens: 1, cache_read_input_tokens: 2 },
      },
      'claude-3-5-haiku-20241022',
    );
    expect(claude.choices[0]).toMatchObject({ message: { content: 'Hi' }, finish_reason: 'length' });
    expect(claude.usage).toMatchObject({
      prompt_tokens: 5,
      completion_tokens: 1,
      prompt_tokens_details: { cached_tokens: 2 },
    });
    const gemini = chat.answer(
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, thoughtsTokenCount: 4, totalTokenCount: 8 },
      },
      'gemini-2.5-flash',
    );
    expect(gemini.choices[0]).toMatchObject({ message: { content: 'Hi' }, finish_reason: 'stop' });
    expect(gemini.usage).toMatchObject({
      prompt_tokens: 3,
      completion_tokens: 5,
      completion_tokens_details: { reasoning_tokens: 4 },
    });
  });

  it('streams Claude events and Gemini chunks as OpenAI chunks', () => {
    const claude = chat.stream('claude-3-5-haiku-20241022', true);
    const state = newStreamState();
    const event = (data: unknown) => ({ data: JSON.stringify(data) });
    claude.push(event({ type: 'message_start', message: { id: 'm', usage: { input_tokens: 4 } } }), state, 1);
    const text = claude.push(
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Yo' } }),
      state,
      2,
    );
    claude.push(
      event({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
      state,
      3,
    );
    expect(text).toContain('"content":"Yo"');
    expect(state.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 1 });
    const gemini = chat.stream('gemini-2.5-flash', true);
    const geminiState = newStreamState();
    const chunk = gemini.push(
      event({
        candidates: [{ content: { parts: [{ text: 'Yo' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1 },
      }),
      geminiState,
      1,
    );
    expect(chunk).toContain('"content":"Yo"');
    expect(geminiState.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 1 });
  });
});

describe('embeddings through :predict', () => {
  it('sends one instance per input and the dimensions, and reads the token counts as usage', () => {
    const call = vertexEmbeddings.call(
      channel(),
      JSON.stringify({ model: 'text-embedding-005', input: ['a b', 'c'], dimensions: 256 }),
      'text-embedding-005',
      'application/json',
    );
    expect(call.url).toMatch(/\/publishers\/google\/models\/text-embedding-005:predict$/);
    expect(body(call)).toEqual({
      instances: [{ content: 'a b' }, { content: 'c' }],
      parameters: { outputDimensionality: 256 },
    });
    const answer = vertexEmbeddings.answer!(
      {
        predictions: [
          { embeddings: { values: [0.1, 0.2], statistics: { token_count: 2, truncated: false } } },
          { embeddings: { values: [0.3, 0.4], statistics: { token_count: 1, truncated: false } } },
        ],
      },
      'text-embedding-005',
    );
    expect(answer).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
        { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
      ],
      model: 'text-embedding-005',
      usage: { prompt_tokens: 3, total_tokens: 3 },
    });
  });
});

describe('Vertex errors', () => {
  it.each([
    [
      "Google's body",
      429,
      '{"error":{"code":429,"message":"Resource exhausted.","status":"RESOURCE_EXHAUSTED"}}',
      { status: 429, message: 'Resource exhausted.', type: 'RESOURCE_EXHAUSTED', code: '429' },
    ],
    [
      "Google's body in a JSON array (a stream without alt=sse)",
      400,
      '[{"error":{"code":400,"message":"Invalid model.","status":"INVALID_ARGUMENT"}}]',
      { status: 400, message: 'Invalid model.', type: 'INVALID_ARGUMENT', code: '400' },
    ],
    [
      "Anthropic's body from the Claude publisher",
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"}}',
      { status: 400, message: 'max_tokens: Field required', type: 'invalid_request_error', code: null },
    ],
  ])('%s', (_name, status, text, error) => {
    expect(vertexError(status, text)).toEqual(error);
  });
});
