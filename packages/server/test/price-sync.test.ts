import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditLogView, PriceChange, PriceSyncPreview } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

/** OpenRouter's public model list, in its wire format: USD per token as strings. */
const OPENROUTER_MODELS = {
  data: [
    // $3 / $15 per 1M, cache read $0.30: ratio 1.5, completion 5, cache 0.1
    { id: 'sync/alpha', pricing: { prompt: '0.000003', completion: '0.000015', input_cache_read: '0.0000003' } },
    // $0.5 / $1.5 per 1M: ratio 0.25, completion 3
    { id: 'sync/beta', pricing: { prompt: '0.0000005', completion: '0.0000015' } },
    { id: 'sync/free', pricing: { prompt: '0', completion: '0' } },
    // Variable pricing (-1) is skipped
    { id: 'sync/router', pricing: { prompt: '-1', completion: '-1' } },
  ],
};

async function startFakeOpenRouter(): Promise<{ url: string; close: () => Promise<void>; hits: string[] }> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/api/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(OPENROUTER_MODELS));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const byKey = (changes: PriceChange[]) => Object.fromEntries(changes.map((c) => [`${c.model}|${c.field}`, c]));

describe.each(dialects)('price sync on %s', (dialect) => {
  let server: TestServer;
  let peer: TestServer;
  let root: ApiClient;
  let alice: ApiClient;
  let openRouter: Awaited<ReturnType<typeof startFakeOpenRouter>>;

  const setOption = async (client: ApiClient, key: string, value: string) => {
    const result = await client.put('/api/option/', { key, value });
    expect(result.success, result.message).toBe(true);
  };
  const option = (key: string) => JSON.parse(server.ctx.options.get(key as never)) as Record<string, number>;

  beforeAll(async () => {
    openRouter = await startFakeOpenRouter();
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    await setOption(root, 'fetch_setting.allow_private_ip', 'true');
    await setOption(root, 'ratio_sync.openrouter_base_url', openRouter.url);
    await setOption(root, 'ModelRatio', JSON.stringify({ 'sync/alpha': 2, 'sync/kept': 7 }));
    await setOption(root, 'CompletionRatio', JSON.stringify({ 'sync/alpha': 5 }));
    await setOption(root, 'CacheRatio', JSON.stringify({ 'sync/beta': 0.5 }));
    await setOption(root, 'ModelPrice', JSON.stringify({ 'sync/call': 0.1 }));

    // A second gateway of the family that publishes its ratios (always SQLite: it is only a source here).
    peer = await startTestServer('sqlite');
    const peerRoot = await setupAndLogin(peer.baseUrl);
    await setOption(peerRoot, 'ModelRatio', JSON.stringify({ 'peer/model': 4, 'sync/kept': 7 }));
    await setOption(peerRoot, 'CompletionRatio', JSON.stringify({ 'peer/model': 2 }));
    await setOption(peerRoot, 'CacheRatio', JSON.stringify({}));
    await setOption(peerRoot, 'ModelPrice', JSON.stringify({ 'sync/call': 0.2 }));
  });
  afterAll(async () => {
    await Promise.all([server?.close(), peer?.close(), openRouter?.close()]);
  });

  it('publishes /api/ratio_config only when ExposeRatioEnabled is on', async () => {
    const anonymous = new ApiClient(peer.baseUrl);
    const closed = await anonymous.get('/api/ratio_config');
    expect(closed.status).toBe(403);
    expect(closed.success).toBe(false);
    const peerRoot = new ApiClient(peer.baseUrl);
    await peerRoot.login('root', 'rootpass123');
    await setOption(peerRoot, 'ExposeRatioEnabled', 'true');
    const open = await anonymous.get<Record<string, Record<string, number>>>('/api/ratio_config');
    expect(open.success).toBe(true);
    expect(open.data.model_ratio).toEqual({ 'peer/model': 4, 'sync/kept': 7 });
    expect(open.data.model_price).toEqual({ 'sync/call': 0.2 });
  });

  it('previews OpenRouter prices as ratios: changed, added and removed per model and field', async () => {
    const result = await root.post<PriceSyncPreview>('/api/ratio_sync/preview', { source: { type: 'openrouter' } });
    expect(result.success, result.message).toBe(true);
    expect(openRouter.hits).toContain('/api/v1/models');
    expect(result.data.source).toBe('OpenRouter');
    expect(result.data.models).toBe(3);
    const changes = byKey(result.data.changes);
    expect(changes['sync/alpha|model_ratio']).toMatchObject({ kind: 'changed', before: 2, after: 1.5 });
    expect(changes['sync/alpha|completion_ratio']).toBeUndefined(); // 5 = 5
    expect(changes['sync/alpha|cache_ratio']).toMatchObject({ kind: 'added', before: null, after: 0.1 });
    expect(changes['sync/beta|model_ratio']).toMatchObject({ kind: 'added', after: 0.25 });
    expect(changes['sync/beta|completion_ratio']).toMatchObject({ kind: 'added', after: 3 });
    expect(changes['sync/beta|cache_ratio']).toMatchObject({ kind: 'removed', before: 0.5, after: null });
    expect(changes['sync/free|model_ratio']).toMatchObject({ kind: 'added', after: 0 });
    expect(Object.keys(changes).some((key) => key.startsWith('sync/router'))).toBe(false);
    // Models the source does not price are never proposed for removal.
    expect(Object.keys(changes).some((key) => key.startsWith('sync/kept') || key.startsWith('sync/call'))).toBe(false);
  });

  it('applies only the selected rows, in the ratio options, and audits them', async () => {
    const result = await root.post<{ applied: number }>('/api/ratio_sync/apply', {
      changes: [
        { model: 'sync/alpha', field: 'model_ratio', after: 1.5 },
        { model: 'sync/beta', field: 'cache_ratio', after: null },
      ],
    });
    expect(result.success, result.message).toBe(true);
    expect(result.data.applied).toBe(2);
    expect(option('ModelRatio')).toEqual({ 'sync/alpha': 1.5, 'sync/kept': 7 });
    expect(option('CacheRatio')).toEqual({});
    expect(option('CompletionRatio')).toEqual({ 'sync/alpha': 5 });
    // Stored, not only in memory.
    const stored = await server.ctx.repos.options.all();
    expect(JSON.parse(stored.find((row) => row.key === 'ModelRatio')!.value)).toEqual({
      'sync/alpha': 1.5,
      'sync/kept': 7,
    });

    const audit = await root.get<{ items: AuditLogView[] }>('/api/audit/?page_size=20&action=option.sync_prices');
    expect(audit.success, audit.message).toBe(true);
    const rows = audit.data.items;
    expect(rows.map((row) => row.target_id).sort()).toEqual(['CacheRatio', 'ModelRatio']);
    const ratioRow = rows.find((row) => row.target_id === 'ModelRatio')!;
    expect(ratioRow.actor_username).toBe('root');
    expect(ratioRow.diff).toEqual([{ field: 'ModelRatio.sync/alpha', before: 2, after: 1.5 }]);
  });

  it('previews a family gateway from its ratio_config, and from /api/pricing when it does not publish one', async () => {
    const exported = await root.post<PriceSyncPreview>('/api/ratio_sync/preview', {
      source: { type: 'gateway', base_url: `${peer.baseUrl}/` },
    });
    expect(exported.success, exported.message).toBe(true);
    const changes = byKey(exported.data.changes);
    expect(changes['peer/model|model_ratio']).toMatchObject({ kind: 'added', after: 4 });
    expect(changes['sync/call|model_price']).toMatchObject({ kind: 'changed', before: 0.1, after: 0.2 });
    expect(changes['sync/kept|model_ratio']).toBeUndefined();

    const peerRoot = new ApiClient(peer.baseUrl);
    await peerRoot.login('root', 'rootpass123');
    await setOption(peerRoot, 'ExposeRatioEnabled', 'false');
    const fromPricing = await root.post<PriceSyncPreview>('/api/ratio_sync/preview', {
      source: { type: 'gateway', base_url: peer.baseUrl },
    });
    // The peer has no channels, so its public price list is empty: read, but nothing to change.
    expect(fromPricing.success, fromPricing.message).toBe(true);
    expect(fromPricing.data.changes).toEqual([]);
    await setOption(peerRoot, 'ExposeRatioEnabled', 'true');

    const family = await root.post<{ differences: Record<string, Record<string, unknown>>; test_results: unknown[] }>(
      '/api/ratio_sync/fetch',
      { upstreams: [{ name: 'peer', base_url: peer.baseUrl }] },
    );
    expect(family.success, family.message).toBe(true);
    expect(family.data.differences['sync/call']?.model_price).toEqual({
      current: 0.1,
      upstreams: { peer: 0.2 },
      confidence: { peer: true },
    });
    expect(family.data.test_results).toEqual([{ name: 'peer', status: 'success' }]);
  });

  it('previews an uploaded ratio config, wrapped in its envelope or not', async () => {
    const upload = await root.post<PriceSyncPreview>('/api/ratio_sync/preview', {
      source: { type: 'upload', data: { success: true, data: { model_ratio: { 'sync/kept': 8 } } } },
    });
    expect(upload.success, upload.message).toBe(true);
    expect(upload.data.changes).toEqual([
      { model: 'sync/kept', field: 'model_ratio', kind: 'changed', before: 7, after: 8 },
    ]);
  });

  it('refuses bad sources, bad selections and non-root callers, changing nothing', async () => {
    const before = server.ctx.options.all();
    const refused = [
      await root.post('/api/ratio_sync/preview', { source: { type: 'upload', data: { hello: 1 } } }),
      await root.post('/api/ratio_sync/preview', { source: { type: 'gateway', base_url: 'ftp://example.com' } }),
      await root.post('/api/ratio_sync/preview', { source: { type: 'gateway', base_url: '' } }),
      await root.post('/api/ratio_sync/preview', {
        source: { type: 'gateway', base_url: `${openRouter.url}/nothing` },
      }),
      await root.post('/api/ratio_sync/apply', { changes: [] }),
      await root.post('/api/ratio_sync/apply', { changes: [{ model: 'x', field: 'model_ratio', after: -1 }] }),
      await root.post('/api/ratio_sync/apply', { changes: [{ model: 'x', field: 'GroupRatio', after: 1 }] }),
      await alice.post('/api/ratio_sync/apply', { changes: [{ model: 'x', field: 'model_ratio', after: 1 }] }),
      await alice.post('/api/ratio_sync/preview', { source: { type: 'openrouter' } }),
      await alice.get('/api/ratio_sync/channels'),
    ];
    for (const answer of refused) expect(answer.success, JSON.stringify(answer.data)).toBe(false);
    expect(refused[0]!.message).toContain('model_ratio');
    expect(server.ctx.options.all()).toEqual(before);

    // With private addresses not allowed, a local gateway is refused before anything is read.
    await setOption(root, 'fetch_setting.allow_private_ip', 'false');
    const hits = openRouter.hits.length;
    const privateRefused = await root.post('/api/ratio_sync/preview', { source: { type: 'openrouter' } });
    expect(privateRefused.success).toBe(false);
    expect(privateRefused.message).toContain('127.0.0.1');
    expect(openRouter.hits.length).toBe(hits);
    await setOption(root, 'fetch_setting.allow_private_ip', 'true');
    expect(server.ctx.options.all()).toEqual(before);
  });
});
