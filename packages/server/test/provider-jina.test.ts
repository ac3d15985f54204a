import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin } from './helpers/client.js';
import {
  addChannel,
  addToken,
  apiError,
  lastCallLog,
  openaiClient,
  plainMessage,
  priceModels,
} from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { JINA_KEY, startJinaMock } from './mock-upstream/providers/jina.js';
import type { VendorMock } from './mock-upstream/providers/vendor-server.js';
import { embeddingFor } from './mock-upstream/text.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

const EMBEDDER = 'jina-embeddings-v3';
const RERANKER = 'jina-reranker-v2-base-multilingual';

describe('Jina AI (type 38) through the gateway', () => {
  let server: TestServer;
  let mock: VendorMock;
  let root: ApiClient;
  let channelId: number;
  let key: string;
  let openai: OpenAI;

  const lastLog = () => lastCallLog(server);

  const rerank = (body: Record<string, unknown>) =>
    fetch(`${server.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: RERANKER, ...body }),
    });

  beforeAll(async () => {
    mock = await startJinaMock();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    channelId = await addChannel(root, {
      type: 38,
      key: JINA_KEY,
      base_url: mock.baseUrl,
      models: `${EMBEDDER},${RERANKER}`,
    });
    await priceModels(server, root, { [EMBEDDER]: 2, [RERANKER]: 3 });
    key = await addToken(root, { remain_quota: 1_000_000 });
    openai = openaiClient(server, key);
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it('embeds with the OpenAI SDK: base64 asked as Jina names it, Jina fields passed on, billed by its tokens', async () => {
    const input = ['one two three', 'four five six seven'];
    const result = await openai.embeddings.create({
      model: EMBEDDER,
      input,
      dimensions: 4,
      task: 'retrieval.passage',
      late_chunking: false,
    } as OpenAI.EmbeddingCreateParams);
    expect(result.data.map((item) => item.embedding)).toEqual(input.map((text) => embeddingFor(text).slice(0, 4)));
    expect(result.usage).toEqual({ total_tokens: 7, prompt_tokens: 7 });
    const request = mock.requests[0]!;
    expect(request.path).toBe('/v1/embeddings');
    expect(request.headers.authorization).toBe(`Bearer ${JINA_KEY}`);
    expect(request.body as WireJson).toEqual({
      model: EMBEDDER,
      input,
      dimensions: 4,
      task: 'retrieval.passage',
      late_chunking: false,
      embedding_type: 'base64',
    });
    // 7 tokens × 2
    expect(await lastLog()).toMatchObject({ model_name: EMBEDDER, prompt_tokens: 7, quota: 14 });
  });

  it("keeps a client's own embedding_type and answers floats as floats", async () => {
    const result = await openai.embeddings.create({
      model: EMBEDDER,
      input: 'alpha beta',
      encoding_format: 'float',
      embedding_type: 'float',
    } as OpenAI.EmbeddingCreateParams);
    expect(result.data[0]!.embedding).toEqual(embeddingFor('alpha beta'));
    expect(mock.requests[0]!.body as WireJson).toEqual({
      model: EMBEDDER,
      input: 'alpha beta',
      embedding_type: 'float',
    });
    expect(await lastLog()).toMatchObject({ prompt_tokens: 2, quota: 4 });
  });

  it("reranks with Jina's answer passed on as it came, billed by its total_tokens", async () => {
    const documents = ['green pears', { text: 'red apples and more' }, 'red wine'];
    const response = await rerank({ query: 'red apples', documents, top_n: 2 });
    expect(response.status).toBe(200);
    const text = await response.text();
    const answer = JSON.parse(text) as WireJson;
    expect(answer).toEqual({
      model: RERANKER,
      // documents 2 + 4 + 2 words, the 2-word query read with each of the 3
      usage: { total_tokens: 14 },
      results: [
        { index: 1, relevance_score: 0.999, document: { text: 'red apples and more' } },
        { index: 2, relevance_score: 0.6647, document: { text: 'red wine' } },
      ],
    });
    expect(mock.requests[0]!.body as WireJson).toEqual({ model: RERANKER, query: 'red apples', documents, top_n: 2 });
    // 14 tokens × 3
    expect(await lastLog()).toMatchObject({ model_name: RERANKER, prompt_tokens: 14, quota: 42 });

    const bare = (await (await rerank({ query: 'x', documents: ['a'], return_documents: false })).json()) as WireJson;
    expect(bare.results).toEqual([{ index: 0, relevance_score: 0.5 }]);
    expect(await lastLog()).toMatchObject({ prompt_tokens: 2, quota: 6 });
  });

  it("answers Jina's refusals with their status and message, and bills nothing", async () => {
    const before = await lastLog();
    const limited = await apiError(openai.embeddings.create({ model: EMBEDDER, input: 'too much [limit]' }));
    expect(limited.status).toBe(429);
    expect(plainMessage(limited)).toBe(
      'Rate limit exceeded for your API key: 500 requests per minute. Please retry later.',
    );
    const invalid = await rerank({ documents: ['a'] });
    expect(invalid.status).toBe(422);
    expect(((await invalid.json()) as WireJson).error.message).toMatch(/^body\.query: Field required/);
    expect((await lastLog()).id).toBe(before.id);
  });

  it('serves no chat: a chat for a Jina model never reaches Jina', async () => {
    const error = await apiError(
      openai.chat.completions.create({ model: EMBEDDER, messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(mock.requests).toHaveLength(0);
  });

  it('passes the channel test button on its embedding model', async () => {
    const result = await root.get<{ success: boolean }>(`/api/channel/test/${channelId}`);
    expect(result).toMatchObject({ success: true, message: '' });
    expect(mock.requests[0]!.path).toBe('/v1/embeddings');
  });
});
