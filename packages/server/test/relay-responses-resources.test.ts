import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { addChannel, addToken, balances, lastCallLog, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// The Responses API besides create: a stored response's routes go to the channel and key that made it, for its
// owner only; compaction is a billed native call; the token count is local and free.
const MODEL = 'gpt-5-stored';
const CHAT_ONLY = 'chat-only-model';

describe('The Responses API surface: stored responses, compaction, token counts', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    // Two keys on one channel: a stored response lives in the account of the key that made it.
    const created = await root.post<number[]>('/api/channel/', {
      mode: 'single',
      channel: {
        name: 'native',
        type: 1,
        group: 'default',
        key: 'sk-first\nsk-second',
        base_url: mock.baseUrl,
        models: MODEL,
      },
    });
    expect(created.success, created.message).toBe(true);
    // DeepSeek's row is OpenAI-compatible without the Responses API: reached through chat, no compaction.
    await addChannel(root, { type: 43, key: 'sk-deepseek', base_url: mock.baseUrl, models: CHAT_ONLY });
    await priceModels(server, root, { [MODEL]: 1, [CHAT_ONLY]: 1 });
    key = await addToken(root, { unlimited_quota: true });
    const other = await signedInUser(server.baseUrl, server.ctx.repos, 'stranger');
    otherKey = await addToken(other, { unlimited_quota: true });
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const stored = (path: string) => mock.requests.filter((request) => request.path.startsWith(path));

  it('retrieves, lists the input of, and deletes a stored response through the key that made it', async () => {
    const client = openaiClient(server, key);
    // Four responses alternate over the channel's two keys; each is then read back with its own key.
    const made = [];
    for (let turn = 0; turn < 4; turn++) {
      made.push(await client.responses.create({ model: MODEL, input: `hello number ${turn}` }));
    }
    for (const response of made) {
      const again = await client.responses.retrieve(response.id);
      expect(again.id).toBe(response.id);
      expect(again.status).toBe('completed');
    }
    const reads = stored(`/v1/responses/resp_`);
    expect(new Set(reads.map((request) => request.headers.authorization))).toEqual(
      new Set(['Bearer sk-first', 'Bearer sk-second']),
    );

    const items = await client.responses.inputItems.list(made[0]!.id);
    expect(items.data).toHaveLength(1);
    expect(JSON.stringify(items.data[0])).toContain('hello number 0');

    const deleted: unknown = await client.responses.delete(made[0]!.id);
    expect(deleted).toMatchObject({ id: made[0]!.id, deleted: true });
    const asked = stored('/v1/responses/resp_').length;
    await expect(client.responses.retrieve(made[0]!.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // Forgotten once deleted: the 404 is the gateway's, no trip upstream.
    expect(stored('/v1/responses/resp_').length).toBe(asked);
  });

  it('remembers a streamed response by the id of its created event', async () => {
    const client = openaiClient(server, key);
    const stream = await client.responses.create({ model: MODEL, input: 'stream me', stream: true });
    let id = '';
    for await (const event of stream) if (event.type === 'response.created') id = event.response.id;
    expect(id).toMatch(/^resp_/);
    expect((await client.responses.retrieve(id)).id).toBe(id);
  });

  it("answers 404 for another user's response, an unknown id and an unstored response, and bills none", async () => {
    const client = openaiClient(server, key);
    const mine = await client.responses.create({ model: MODEL, input: 'private' });
    const unstored = await client.responses.create({ model: MODEL, input: 'ephemeral', store: false });
    const before = await balances(server, root.userId!, key);
    const asked = stored('/v1/responses/resp_').length;
    const stranger = openaiClient(server, otherKey);
    for (const attempt of [
      () => stranger.responses.retrieve(mine.id),
      () => stranger.responses.delete(mine.id),
      () => stranger.responses.inputItems.list(mine.id),
      () => stranger.responses.cancel(mine.id),
      () => client.responses.retrieve('resp_never_made'),
      () => client.responses.retrieve(unstored.id),
    ]) {
      const error = await attempt().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.NotFoundError>).message).toContain('not found');
    }
    expect(stored('/v1/responses/resp_').length).toBe(asked);
    // The owner still has it.
    expect((await client.responses.retrieve(mine.id)).id).toBe(mine.id);
    const after = await balances(server, root.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
  });

  it("passes the upstream's refusal of a cancel through", async () => {
    const client = openaiClient(server, key);
    const made = await client.responses.create({ model: MODEL, input: 'not in the background' });
    const error = await client.responses.cancel(made.id).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('background=true');
  });

  it('compacts natively, billed by the usage of the answer', async () => {
    const before = await balances(server, root.userId!, key);
    const response = await fetch(`${server.baseUrl}/v1/responses/compact`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        input: [
          { role: 'user', content: 'write a poem' },
          { role: 'assistant', content: 'roses are red' },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { object: string; output: Array<{ type?: string }> };
    expect(answer.object).toBe('response.compaction');
    expect(answer.output.at(-1)?.type).toBe('compaction');
    const sent = stored('/v1/responses/compact');
    expect(sent).toHaveLength(1);
    expect((sent[0]!.body as { model: string }).model).toBe(MODEL);
    const log = await lastCallLog(server);
    expect(log.model_name).toBe(MODEL);
    expect(log.completion_tokens).toBe(7);
    const after = await balances(server, root.userId!, key);
    expect(before.user.quota - after.user.quota).toBe(log.quota);
    expect(log.quota).toBeGreaterThan(0);
  });

  it('refuses compaction without a model as a 400, and on a chat-only channel as a 400 that names the channel', async () => {
    const post = (body: unknown) =>
      fetch(`${server.baseUrl}/v1/responses/compact`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const before = await balances(server, root.userId!, key);
    const missing = await post({ input: [{ role: 'user', content: 'hi' }] });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('model');
    const chatOnly = await post({ model: CHAT_ONLY, input: [{ role: 'user', content: 'hi' }] });
    expect(chatOnly.status).toBe(400);
    expect(((await chatOnly.json()) as { error: { message: string } }).error.message).toContain('channel');
    expect(stored('/v1/responses/compact')).toHaveLength(0);
    const after = await balances(server, root.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
  });

  it('counts input tokens locally, for free, and only for a valid key', async () => {
    const before = await balances(server, root.userId!, key);
    const count = (auth: string) =>
      fetch(`${server.baseUrl}/v1/responses/input_tokens`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, instructions: 'Be brief.', input: 'How many tokens is this question?' }),
      });
    const counted = await count(`Bearer ${key}`);
    expect(counted.status).toBe(200);
    const body = (await counted.json()) as { object: string; input_tokens: number };
    expect(body.object).toBe('response.input_tokens');
    expect(body.input_tokens).toBeGreaterThan(5);
    expect(body.input_tokens).toBeLessThan(30);
    expect((await count('Bearer sk-wrong')).status).toBe(401);
    expect(mock.requests).toHaveLength(0);
    const after = await balances(server, root.userId!, key);
    expect(after.user.quota).toBe(before.user.quota);
  });
});
