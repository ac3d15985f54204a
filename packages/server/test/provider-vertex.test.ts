import Anthropic from '@anthropic-ai/sdk';
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { GoogleGenAI } from '@google/genai';
import { JWT } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addChannel, apiError, balances, plainMessage, priceModels } from './helpers/relay.js';
import { type VendorChat, vendorChatSuite } from './helpers/vendor-chat.js';
import {
  GOOGLE_TOKEN_URI,
  type ServiceAccountJson,
  startVertexMock,
  VERTEX_API_KEY,
  type VertexMock,
} from './mock-upstream/providers/vertex.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const SAFETY_OFF = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
].map((category) => ({ category, threshold: 'OFF' }));

/**
 * The vendor battery for one Vertex publisher. The key file names the mock's token endpoint, which exists only once
 * the mock runs: the suite reads `key` after `start`, so `start` writes it (one line: the channel stores a key per
 * line).
 */
function vertexSuite(model: string, replyModel: string, other: string) {
  const options = {
    vendor: 'vertex',
    type: 41,
    key: '',
    model,
    replyModel,
    other,
    async start() {
      const mock = await startVertexMock();
      options.key = JSON.stringify(mock.serviceAccount());
      return mock;
    },
  };
  const suite = vendorChatSuite<VertexMock>(options);
  const billed = async (run: () => Promise<void>) => {
    const before = await balances(suite.server, suite.root.userId!, suite.tokenKey);
    await run();
    const after = await balances(suite.server, suite.root.userId!, suite.tokenKey);
    return before.user.quota - after.user.quota;
  };
  const tokenRequests = () => suite.mock.requests.filter((request) => request.path === '/token');
  const modelRequests = () => suite.mock.requests.filter((request) => request.path.includes('/publishers/'));
  /** A channel on a key the gateway has not seen, for `models` (priced at 1). */
  const freshChannel = async (models: string, key: string = JSON.stringify(suite.mock.serviceAccount())) => {
    const id = await addChannel(suite.root, { type: 41, key, base_url: suite.mock.baseUrl, models, other });
    await priceModels(suite.server, suite.root, Object.fromEntries(models.split(',').map((name) => [name, 1])));
    return id;
  };
  return { suite, billed, tokenRequests, modelRequests, freshChannel };
}

const hello = (suite: VendorChat<VertexMock>, model: string, content = 'Say hello') =>
  suite.openai.chat.completions.create({ model, messages: [{ role: 'user', content }] });

describe('Vertex AI (type 41), Gemini on Google’s publisher, through the gateway', () => {
  const { suite, billed, tokenRequests, modelRequests, freshChannel } = vertexSuite(
    'gemini-2.5-flash',
    'gemini-2.5-flash',
    'us-central1',
  );

  it("sends generateContent to the region's publisher path with the service account's Bearer token", async () => {
    await hello(suite, 'gemini-2.5-flash');
    const [call] = modelRequests();
    expect(call!.path).toBe(
      '/v1/projects/mock-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(call!.headers.authorization).toBe(`Bearer ${suite.mock.issued.at(-1)}`);
    expect(call!.headers['x-goog-api-key']).toBeUndefined();
    expect(call!.body as WireJson).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      safetySettings: SAFETY_OFF,
    });
  });

  it('takes the key file pasted as Google gives it (pretty-printed JSON) as one key, and two in a JSON array as two', async () => {
    const pretty = JSON.stringify(suite.mock.serviceAccount(), null, 2);
    const id = await freshChannel('gemini-2.5-flash-lite', pretty);
    const cached = suite.server.ctx.channelCache.get(id)!;
    expect(cached.keys).toHaveLength(1);
    expect(JSON.parse(cached.keys[0]!)).toEqual(JSON.parse(pretty));
    const answer = await hello(suite, 'gemini-2.5-flash-lite');
    expect(answer.choices[0]!.message.content).toContain('gemini-2.5-flash-lite');
    // Batch creation makes one channel per key (family behaviour): a JSON array of two key files makes two.
    const pair = JSON.stringify([suite.mock.serviceAccount(), suite.mock.serviceAccount()], null, 2);
    const created = await suite.root.post<number[]>('/api/channel/', {
      name: 'vertex-pair',
      type: 41,
      key: pair,
      base_url: suite.mock.baseUrl,
      models: 'gemini-2.5-pro',
      group: 'default',
    });
    expect(created.data).toHaveLength(2);
    for (const id of created.data) {
      expect(suite.server.ctx.channelCache.get(id)!.keys.map((key) => JSON.parse(key).type)).toEqual([
        'service_account',
      ]);
      await suite.root.delete(`/api/channel/${id}/`);
    }
  });

  it('streams with streamGenerateContent?alt=sse', async () => {
    const stream = await suite.openai.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
    });
    for await (const _ of stream) {
      // drained
    }
    const [call] = modelRequests();
    expect(call!.path).toMatch(/\/models\/gemini-2\.5-flash:streamGenerateContent$/);
    expect(call!.query).toEqual({ alt: 'sse' });
  });

  it('fetches one token for concurrent requests on a new key and reuses it for the next ones', async () => {
    const issuedBefore = suite.mock.issued.length;
    await freshChannel('gemini-2.0-flash-001');
    const ask = () => hello(suite, 'gemini-2.0-flash-001', 'hi');
    await Promise.all([ask(), ask(), ask()]);
    await ask();
    expect(tokenRequests()).toHaveLength(1);
    expect(suite.mock.issued).toHaveLength(issuedBefore + 1);
    const token = `Bearer ${suite.mock.issued.at(-1)}`;
    expect(modelRequests().map((request) => request.headers.authorization)).toEqual([token, token, token, token]);
    // The assertion was RS256 over the service account's claims, for the token endpoint the key names.
    const assertion = (tokenRequests()[0]!.body as WireJson).fields.assertion as string;
    const [header, claims] = assertion
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(claims).toMatchObject({ scope: SCOPE, aud: suite.mock.tokenUri });
    expect(claims.exp - claims.iat).toBe(3600);
  });

  it('fetches a new token in the background when the held one nears its expiry, and uses it next', async () => {
    suite.mock.tokenLifetime = 200; // inside the five-minute renewal window from the start
    try {
      await freshChannel('gemini-2.0-flash-lite');
      const ask = () => hello(suite, 'gemini-2.0-flash-lite', 'hi');
      await ask();
      const first = suite.mock.issued.at(-1)!;
      await ask(); // still served with the first token; a second is fetched meanwhile
      await expect.poll(() => tokenRequests().length).toBeGreaterThanOrEqual(2);
      const second = suite.mock.issued[suite.mock.issued.indexOf(first) + 1]!;
      await ask();
      expect(modelRequests().map((request) => request.headers.authorization)).toEqual([
        `Bearer ${first}`,
        `Bearer ${first}`,
        `Bearer ${second}`,
      ]);
    } finally {
      suite.mock.tokenLifetime = 3599;
    }
  });

  it('serves Gemini clients natively (@google/genai), whole and streamed, billed from usageMetadata', async () => {
    const genai = new GoogleGenAI({ apiKey: suite.tokenKey, httpOptions: { baseUrl: suite.server.baseUrl } });
    const spent = await billed(async () => {
      const answer = await genai.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'Say hello',
        config: { maxOutputTokens: 64 },
      });
      expect(answer.text).toBe('Hello from vertex mock: gemini-2.5-flash');
      expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 5 });
      let text = '';
      for await (const chunk of await genai.models.generateContentStream({
        model: 'gemini-2.5-flash',
        contents: 'Say hello',
      })) {
        text += chunk.text ?? '';
      }
      expect(text).toBe('Hello from vertex mock: gemini-2.5-flash');
    });
    expect(spent).toBe(30);
    const [whole, streamed] = modelRequests();
    expect(whole!.path).toMatch(
      /\/locations\/us-central1\/publishers\/google\/models\/gemini-2\.5-flash:generateContent$/,
    );
    expect(whole!.body as WireJson).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      generationConfig: { maxOutputTokens: 64 },
    });
    expect(streamed!.path).toMatch(/:streamGenerateContent$/);
    expect(streamed!.query).toEqual({ alt: 'sse' });
  });

  it('serves embeddings through :predict, usage from the token counts', async () => {
    await freshChannel('text-embedding-005');
    const answer = await suite.openai.embeddings.create({
      model: 'text-embedding-005',
      input: ['one two', 'three'],
      encoding_format: 'float',
    });
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [0, 0.5, -0.5],
      [1, 0.5, -0.5],
    ]);
    expect(answer.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    const [call] = modelRequests();
    expect(call!.path).toMatch(/\/publishers\/google\/models\/text-embedding-005:predict$/);
    expect(call!.body).toEqual({ instances: [{ content: 'one two' }, { content: 'three' }] });
  });

  it('an API key (express mode) goes in x-goog-api-key to the project-less publisher path', async () => {
    await freshChannel('gemini-2.0-flash', VERTEX_API_KEY);
    const answer = await hello(suite, 'gemini-2.0-flash');
    expect(answer.choices[0]!.message.content).toBe('Hello from vertex mock: gemini-2.0-flash');
    expect(tokenRequests()).toHaveLength(0);
    const [call] = modelRequests();
    expect(call!.path).toBe('/v1/publishers/google/models/gemini-2.0-flash:generateContent');
    expect(call!.headers['x-goog-api-key']).toBe(VERTEX_API_KEY);
    expect(call!.headers.authorization).toBeUndefined();
  });

  it("a key the token endpoint refuses is the channel's failure: 503, never the key", async () => {
    const account = suite.mock.serviceAccount();
    const impostor = { ...account, private_key: suite.mock.serviceAccount().private_key };
    const id = await freshChannel('gemini-1.5-pro', JSON.stringify(impostor));
    const error = await apiError(hello(suite, 'gemini-1.5-pro'));
    // A generic 503 for the caller; the test button (below) is where the admin reads the token endpoint's reason.
    expect(error.status).toBe(503);
    expect(plainMessage(error)).not.toContain('invalid_grant');
    expect(modelRequests()).toHaveLength(0);
    const test = await suite.root.get(`/api/channel/test/${id}`);
    expect(test).toMatchObject({ success: false });
    expect(JSON.stringify(test)).not.toContain('PRIVATE KEY');
  });

  it('a key that is no service-account JSON is refused before anything is sent', async () => {
    await freshChannel('gemini-1.5-flash', '{"type": "service_account", "client_email": ');
    const error = await apiError(hello(suite, 'gemini-1.5-flash'));
    expect(error.status).toBe(503);
    expect(error.code).toBe('upstream_channel_unavailable');
    expect(suite.mock.requests).toHaveLength(0);
  });
});

describe('Vertex AI (type 41), Claude on Anthropic’s publisher, through the gateway', () => {
  const { suite, billed, modelRequests, freshChannel } = vertexSuite(
    'claude-3-5-sonnet-20241022',
    'claude-3-5-sonnet-v2@20241022',
    '{"default": "global", "claude-3-5-sonnet-20241022": "us-east5"}',
  );
  const anthropic = () => new Anthropic({ apiKey: suite.tokenKey, baseURL: suite.server.baseUrl, maxRetries: 0 });

  it("sends rawPredict to the Vertex model id in the model's region: Vertex's version, no model in the body", async () => {
    await hello(suite, 'claude-3-5-sonnet-20241022');
    const [call] = modelRequests();
    expect(call!.path).toBe(
      '/v1/projects/mock-project/locations/us-east5/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:rawPredict',
    );
    expect(call!.headers.authorization).toBe(`Bearer ${suite.mock.issued.at(-1)}`);
    expect(call!.headers['anthropic-version']).toBeUndefined();
    expect(call!.body as WireJson).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
      max_tokens: 8192,
    });
  });

  it('streams with streamRawPredict', async () => {
    const stream = await suite.openai.chat.completions.create({
      model: 'claude-3-5-sonnet-20241022',
      messages: [{ role: 'user', content: 'Say hello' }],
      stream: true,
    });
    for await (const _ of stream) {
      // drained
    }
    const [call] = modelRequests();
    expect(call!.path).toMatch(/\/models\/claude-3-5-sonnet-v2@20241022:streamRawPredict$/);
    expect((call!.body as WireJson).stream).toBe(true);
  });

  it('serves /v1/messages clients asking for a Gemini model of the channel through generateContent, converted', async () => {
    await freshChannel('gemini-2.5-flash-lite');
    const message = await anthropic().messages.create({
      model: 'gemini-2.5-flash-lite',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from vertex mock: gemini-2.5-flash-lite' }]);
    expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    const [call] = modelRequests();
    expect(call!.path).toMatch(/\/publishers\/google\/models\/gemini-2\.5-flash-lite:generateContent$/);
  });

  it('serves /v1/messages clients (@anthropic-ai/sdk) natively, whole and streamed, billed from Claude usage', async () => {
    const client = anthropic();
    const spent = await billed(async () => {
      const message = await client.messages.create({
        model: 'claude-3-5-sonnet-20241022',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'Say hello' }],
      });
      expect(message.content).toEqual([
        { type: 'text', text: 'Hello from vertex mock: claude-3-5-sonnet-v2@20241022' },
      ]);
      expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
      const stream = client.messages.stream({
        model: 'claude-3-5-sonnet-20241022',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'Say hello' }],
      });
      const final = await stream.finalMessage();
      expect(final.content).toEqual([{ type: 'text', text: 'Hello from vertex mock: claude-3-5-sonnet-v2@20241022' }]);
      expect(final.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    });
    expect(spent).toBe(30);
    const [whole, streamed] = modelRequests();
    expect(whole!.path).toMatch(
      /\/locations\/us-east5\/publishers\/anthropic\/models\/claude-3-5-sonnet-v2@20241022:rawPredict$/,
    );
    expect(whole!.body as WireJson).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(streamed!.path).toMatch(/:streamRawPredict$/);
    expect(streamed!.body as WireJson).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true });
    expect((streamed!.body as WireJson).model).toBeUndefined();
  });

  it('passes the client’s anthropic-beta flags on, not its anthropic-version header', async () => {
    await anthropic().messages.create(
      { model: 'claude-3-5-sonnet-20241022', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
      { headers: { 'anthropic-beta': 'token-efficient-tools-2025-02-19' } },
    );
    const [call] = modelRequests();
    expect(call!.headers['anthropic-beta']).toBe('token-efficient-tools-2025-02-19');
    expect(call!.headers['anthropic-version']).toBeUndefined();
  });
});

describe('the Vertex mock speaks what Google’s and Anthropic’s SDKs expect', () => {
  let mock: VertexMock;
  let account: ServiceAccountJson;

  /**
   * A google-auth-library JWT client made from the key file. Version 10 posts to Google's token URL whatever the
   * file's `token_uri` says, so its transport is pointed at the `token_uri` the file names (the mock's).
   */
  const authClient = (key: ServiceAccountJson = account) => {
    const client = new JWT({ scopes: [SCOPE] });
    client.fromJSON(key);
    client.transporter.interceptors.request.add({
      resolved: async (config) => {
        if (config.url.toString() === GOOGLE_TOKEN_URI) config.url = new URL(key.token_uri);
        return config;
      },
    });
    return client;
  };

  beforeAll(async () => {
    mock = await startVertexMock();
    account = mock.serviceAccount({ projectId: 'sdk-project' });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('google-auth-library obtains an access token from the key file with a signed assertion', async () => {
    const { token } = await authClient().getAccessToken();
    expect(token).toBe(mock.issued.at(-1));
    const request = mock.requests.find((entry) => entry.path === '/token')!;
    expect((request.body as WireJson).fields.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
  });

  it('google-auth-library is refused for a key the mock does not trust', async () => {
    const stranger = { ...account, private_key: mock.serviceAccount().private_key };
    await expect(authClient(stranger).getAccessToken()).rejects.toThrow(/invalid_grant: Invalid JWT Signature/);
  });

  it('@anthropic-ai/vertex-sdk talks to the Claude publisher, whole and streamed', async () => {
    const client = new AnthropicVertex({
      projectId: 'sdk-project',
      region: 'us-east5',
      baseURL: `${mock.baseUrl}/v1`,
      authClient: authClient(),
      maxRetries: 0,
    });
    const message = await client.messages.create({
      model: 'claude-3-5-sonnet-v2@20241022',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from vertex mock: claude-3-5-sonnet-v2@20241022' }]);
    expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    const final = await client.messages
      .stream({ model: 'claude-sonnet-4@20250514', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }] })
      .finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello from vertex mock: claude-sonnet-4@20250514' }]);
    expect(final.usage).toMatchObject({ input_tokens: 5, output_tokens: 5 });
    const calls = mock.requests.filter((entry) => entry.path.includes('/publishers/'));
    for (const call of calls) expect((call.body as WireJson).model).toBeUndefined();
    expect(calls.map((call) => decodeURIComponent(call.path))).toEqual([
      '/v1/projects/sdk-project/locations/us-east5/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:rawPredict',
      '/v1/projects/sdk-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict',
    ]);
  });

  it('@google/genai in Vertex mode talks to the Gemini publisher, whole and streamed', async () => {
    const genai = new GoogleGenAI({
      vertexai: true,
      project: 'sdk-project',
      location: 'europe-west4',
      googleAuthOptions: { authClient: authClient() },
      httpOptions: { baseUrl: mock.baseUrl, apiVersion: 'v1' },
    });
    const answer = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Say hello' });
    expect(answer.text).toBe('Hello from vertex mock: gemini-2.5-flash');
    expect(answer.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 });
    let text = '';
    let usage: { totalTokenCount?: number } | undefined;
    for await (const chunk of await genai.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'Say hello',
    })) {
      text += chunk.text ?? '';
      usage = chunk.usageMetadata ?? usage;
    }
    expect(text).toBe('Hello from vertex mock: gemini-2.5-flash');
    expect(usage?.totalTokenCount).toBe(10);
    const paths = mock.requests
      .filter((entry) => entry.path.includes('/publishers/google/'))
      .map((entry) => entry.path);
    expect(paths).toEqual([
      '/v1/projects/sdk-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent',
      '/v1/projects/sdk-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
    ]);
  });

  it('refuses a token of another project and a request without a token, in Google’s error format', async () => {
    const other = mock.serviceAccount({ projectId: 'other-project' });
    const url = `${mock.baseUrl}/v1/projects/sdk-project/locations/global/publishers/google/models/gemini-2.5-flash:generateContent`;
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    const anonymous = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    const { token } = await authClient(other).getAccessToken();
    const foreign = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
  });
});
