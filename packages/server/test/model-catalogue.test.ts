import {
  type CatalogueModel,
  type CatalogueModelPage,
  type CatalogueVendor,
  type CatalogueVendorPage,
  type PricingResponse,
  Role,
} from '@gateway/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel, addToken, balances, openaiClient } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();

describe.each(dialects)('the model catalogue on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let alice: ApiClient;

  const option = (key: string) => JSON.parse(server.ctx.options.get(key as 'ModelRatio')) as Record<string, number>;
  const pricing = async () => (await (await fetch(`${server.baseUrl}/api/pricing`)).json()) as PricingResponse;
  const missing = async () => (await root.get<string[]>('/api/models/missing')).data;
  const tables = async () => ({
    models: await server.ctx.repos.catalogue.allModels(),
    vendors: await server.ctx.repos.catalogue.allVendors(),
    options: ['ModelRatio', 'ModelPrice', 'CompletionRatio', 'CacheRatio'].map((key) =>
      server.ctx.options.get(key as 'ModelRatio'),
    ),
  });

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    await addChannel(root, {
      type: 1,
      name: 'main',
      key: 'sk-up',
      base_url: mock.baseUrl,
      models: 'gpt-4o,acme-large,acme-small',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('keeps GET /api/models (no slash) as the channel editor’s map for any user, and the catalogue for admins', async () => {
    const map = await alice.get<Record<string, string[]>>('/api/models');
    expect(map.success).toBe(true);
    expect(Object.keys(map.data)).toContain('1');
    const page = await root.get<CatalogueModelPage>('/api/models/?p=1&page_size=10');
    expect(page.data).toMatchObject({ items: [], total: 0, page: 1, page_size: 10 });
    for (const [method, path] of [
      ['GET', '/api/models/'],
      ['GET', '/api/models/missing'],
      ['GET', '/api/vendors/'],
      ['POST', '/api/vendors/'],
      ['POST', '/api/models/'],
    ] as const) {
      const answer = method === 'GET' ? await alice.get(path) : await alice.post(path, { name: 'x', model_name: 'x' });
      expect(answer.success, `${method} ${path}`).toBe(false);
    }
    expect((await tables()).vendors).toEqual([]);
  });

  it('lists models served by channels but unknown to the catalogue, and adds them in one call', async () => {
    expect(await missing()).toEqual(['acme-large', 'acme-small', 'gpt-4o']);
    const added = await root.post<{ added: number }>('/api/models/missing', {
      model_names: ['acme-small', 'not-served'],
    });
    expect(added.data).toEqual({ added: 1 });
    expect(await missing()).toEqual(['acme-large', 'gpt-4o']);
    // A rule entry covers every served name it matches.
    const rule = await root.post<CatalogueModel>('/api/models/', { model_name: 'gpt-', name_rule: 1 });
    expect(rule.success, rule.message).toBe(true);
    expect(rule.data.bound_channels).toEqual([{ name: 'main', type: 1 }]);
    expect(await missing()).toEqual(['acme-large']);
  });

  it('creates, searches, updates and deletes vendors; bad input changes nothing', async () => {
    const acme = await root.post<CatalogueVendor>('/api/vendors/', {
      name: 'Acme',
      icon: 'OpenAI',
      description: 'Rockets',
    });
    expect(acme.data).toMatchObject({
      name: 'Acme',
      icon: 'OpenAI',
      description: 'Rockets',
      model_count: 0,
      status: 1,
    });
    const before = await tables();
    for (const body of [
      { name: '' },
      { name: 'Acme' },
      { name: 'x'.repeat(129) },
      { name: 'Ok', icon: 'y'.repeat(200) },
    ]) {
      const answer = await root.post('/api/vendors/', body);
      expect(answer.success, JSON.stringify(body)).toBe(false);
    }
    expect((await root.put('/api/vendors/', { id: 9999, name: 'Ghost' })).success).toBe(false);
    expect(await tables()).toEqual(before);
    const other = await root.post<CatalogueVendor>('/api/vendors/', { name: 'Other' });
    expect((await root.put('/api/vendors/', { id: other.data.id, name: 'Acme' })).message).toBe('供应商名称已存在');
    const found = await root.get<CatalogueVendorPage>('/api/vendors/search?keyword=Rock');
    expect(found.data.items.map((vendor) => vendor.name)).toEqual(['Acme']);
    // LIKE's wildcards match literally and control characters are dropped: nothing widens a search.
    for (const keyword of ['%', '_', 'Rock%', '\u0000']) {
      const page = await root.get<CatalogueVendorPage>(`/api/vendors/search?keyword=${encodeURIComponent(keyword)}`);
      expect(page.data.items.length, JSON.stringify(keyword)).toBe(keyword === '\u0000' ? 2 : 0);
    }
    const models = await root.get<CatalogueModelPage>('/api/models/search?keyword=%25');
    expect(models.data.total).toBe(0);
    expect((await root.delete(`/api/vendors/${other.data.id}`)).success).toBe(true);
    expect((await root.get(`/api/vendors/${other.data.id}`)).success).toBe(false);
  });

  it('saves a model with vendor, endpoints and price: the price goes to the ratio options, which bill it', async () => {
    const [acme] = (await root.get<CatalogueVendorPage>('/api/vendors/search?keyword=Acme')).data.items;
    const created = await root.post<CatalogueModel>('/api/models/', {
      model_name: 'acme-large',
      vendor_id: acme!.id,
      description: 'The big one',
      tags: 'chat,long',
      endpoints: '["openai","anthropic"]',
      context_length: 200000,
      price: { model_ratio: 2, completion_ratio: 3, cache_ratio: 0.25 },
    });
    expect(created.success, created.message).toBe(true);
    expect(created.data).toMatchObject({
      model_name: 'acme-large',
      vendor_id: acme!.id,
      context_length: 200000,
      bound_channels: [{ name: 'main', type: 1 }],
      price: { model_ratio: 2, completion_ratio: 3, cache_ratio: 0.25, model_price: null },
    });
    expect(option('ModelRatio')['acme-large']).toBe(2);
    expect(option('CompletionRatio')['acme-large']).toBe(3);
    // The audit log has the option change.
    const audit = await server.ctx.repos.auditLogs.list({}, 0, 20);
    expect(audit.items.some((row) => row.target_id === 'ModelRatio' && row.diff.includes('acme-large'))).toBe(true);

    const key = await addToken(root, { unlimited_quota: true });
    /** What one call of 1000 prompt and 100 completion tokens costs, from the user's used quota. */
    const costOfCall = async () => {
      const before = await balances(server, root.userId!, key);
      mock.enqueue('openai.chat', { kind: 'ok', text: 'hi', usage: { prompt: 1000, completion: 100 } });
      await openaiClient(server, key).chat.completions.create({
        model: 'acme-large',
        messages: [{ role: 'user', content: 'x' }],
      });
      const after = await balances(server, root.userId!, key);
      return after.user.used_quota - before.user.used_quota;
    };
    // (1000 + 100 × 3) × 2 = 2600 quota.
    expect(await costOfCall()).toBe(2600);

    // Editing the price in the catalogue changes billing at once; null removes an entry.
    const updated = await root.put<CatalogueModel>('/api/models/', {
      ...created.data,
      price: { model_ratio: 1, completion_ratio: null },
    });
    expect(updated.data.price).toEqual({
      model_ratio: 1,
      completion_ratio: null,
      cache_ratio: 0.25,
      model_price: null,
    });
    expect(option('CompletionRatio')).not.toHaveProperty('acme-large');
    // (1000 + 100 × 1) × 1 = 1100 quota.
    expect(await costOfCall()).toBe(1100);
  });

  it('lets an admin describe models but leaves prices (the ratio options) to root', async () => {
    const admin = await signedInUser(server.baseUrl, server.ctx.repos, 'admin-catalogue');
    await server.ctx.repos.users.update(admin.userId!, { role: Role.Admin });
    const before = await tables();
    const refused = await admin.post('/api/models/', { model_name: 'admin-model', price: { model_ratio: 9 } });
    expect(refused.success).toBe(false);
    expect(await tables()).toEqual(before);
    const saved = await admin.post<CatalogueModel>('/api/models/', { model_name: 'admin-model', description: 'ok' });
    expect(saved.success, saved.message).toBe(true);
    expect(saved.data.price.model_ratio).toBeNull();
    expect((await admin.delete(`/api/models/${saved.data.id}`)).success).toBe(true);
  });

  it('refuses bad model input without changing the tables or the ratio options', async () => {
    const before = await tables();
    const bad = [
      { model_name: '' },
      { model_name: 'acme-large' },
      { model_name: 'new-one', vendor_id: 9999 },
      { model_name: 'new-one', endpoints: 'not json' },
      { model_name: 'new-one', context_length: -1 },
      { model_name: 'new-one', price: { model_ratio: -1 } },
      { model_name: 'new-one', price: { model_ratio: 'abc' } },
    ];
    for (const body of bad) expect((await root.post('/api/models/', body)).success, JSON.stringify(body)).toBe(false);
    expect((await root.put('/api/models/', { id: 9999, model_name: 'x', price: { model_ratio: 3 } })).success).toBe(
      false,
    );
    expect(await tables()).toEqual(before);
    expect((await root.post('/api/models/', { model_name: 'acme-large' })).message).toBe('模型名称已存在');
  });

  it('shows vendors and catalogue fields on the price list and hides models marked not shown', async () => {
    let answer = await pricing();
    const acme = answer.vendors.find((vendor) => vendor.name === 'Acme');
    expect(acme).toMatchObject({ icon: 'OpenAI', description: 'Rockets' });
    expect(answer.data.find((entry) => entry.model_name === 'acme-large')).toMatchObject({
      vendor_id: acme!.id,
      description: 'The big one',
      tags: 'chat,long',
    });
    const { data } = await root.get<CatalogueModelPage>('/api/models/search?keyword=acme-large');
    const row = data.items[0]!;
    expect((await root.put(`/api/models/?status_only=true`, { id: row.id, status: 0 })).success).toBe(true);
    answer = await pricing();
    expect(answer.data.map((entry) => entry.model_name)).not.toContain('acme-large');
    // Hidden from the list, still billed.
    expect(option('ModelRatio')['acme-large']).toBe(1);
    expect((await root.delete(`/api/models/${row.id}`)).success).toBe(true);
    expect(await missing()).toContain('acme-large');
  });
});
