import type { CacheUsageView } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, flushBilling, openaiClient, priceModels } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

// The dashboard's prompt-cache hit rate: cached prompt tokens per key and model, summed from the call logs' `other`
// JSON on each database (a row whose `other` is not JSON counts as no hit instead of failing the query).
describe.each(dialects)('prompt-cache usage per key and model on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let user: ApiClient;

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-a', base_url: mock.baseUrl, models: 'gpt-4o,gpt-4o-mini' });
    await priceModels(server, root, { 'gpt-4o': 1, 'gpt-4o-mini': 1 });
    user = await signedInUser(server.baseUrl, server.ctx.repos, 'cacher');
    await server.ctx.repos.users.update(user.userId!, { quota: 100_000_000 });
    const agent = await addToken(user, { name: 'agent', unlimited_quota: true });
    const script = await addToken(user, { name: 'script', unlimited_quota: true });
    const ask = async (key: string, model: string, usage: { prompt: number; completion: number; cached: number }) => {
      mock.enqueue('openai.chat', { kind: 'ok', text: 'ok', usage });
      await openaiClient(server, key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    };
    await ask(agent, 'gpt-4o', { prompt: 1000, completion: 10, cached: 800 });
    await ask(agent, 'gpt-4o', { prompt: 1000, completion: 10, cached: 900 });
    await ask(agent, 'gpt-4o-mini', { prompt: 200, completion: 10, cached: 0 });
    await ask(script, 'gpt-4o', { prompt: 500, completion: 10, cached: 100 });
    // Root's own call, which the user must not see.
    await ask(await addToken(root, { name: 'root-key', unlimited_quota: true }), 'gpt-4o', {
      prompt: 300,
      completion: 1,
      cached: 300,
    });
    await flushBilling(server);
    // An adopted database's row whose `other` is not JSON: a copy of the user's last call (the script's).
    const [row] = (await server.ctx.repos.logs.list({ username: 'cacher' }, 0, 1)).items;
    await server.ctx.repos.logs.insertMany([
      { ...row!, id: undefined, other: 'not json {', created_at: row!.created_at },
    ]);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it("sums a user's own calls per key and model, busiest first", async () => {
    const answer = await user.get<CacheUsageView[]>('/api/log/self/cache_usage');
    expect(answer.success, answer.message).toBe(true);
    expect(answer.data).toEqual([
      { token_name: 'agent', model_name: 'gpt-4o', requests: 2, prompt_tokens: 2000, cached_tokens: 1700 },
      // The copy with a broken `other` counts its prompt, and no cache hit.
      { token_name: 'script', model_name: 'gpt-4o', requests: 2, prompt_tokens: 1000, cached_tokens: 100 },
      { token_name: 'agent', model_name: 'gpt-4o-mini', requests: 1, prompt_tokens: 200, cached_tokens: 0 },
    ]);
  });

  it('lets an admin see every user and filter, and refuses a user the admin route', async () => {
    const all = await root.get<CacheUsageView[]>('/api/log/cache_usage');
    expect(all.data.map((row) => row.token_name)).toContain('root-key');
    const one = await root.get<CacheUsageView[]>('/api/log/cache_usage?model_name=gpt-4o-mini');
    expect(one.data).toEqual([
      { token_name: 'agent', model_name: 'gpt-4o-mini', requests: 1, prompt_tokens: 200, cached_tokens: 0 },
    ]);
    const refused = await user.get('/api/log/cache_usage');
    expect(refused.success).toBe(false);
  });
});
