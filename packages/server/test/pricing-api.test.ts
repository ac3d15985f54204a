import type { PricingEntry, PricingResponse } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { addChannel } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('GET /api/pricing', () => {
  let server: TestServer;
  let root: ApiClient;
  let disabledChannel: number;

  /** The public list as a visitor (or the given signed-in client) sees it, over a real socket. */
  async function pricing(cookie = ''): Promise<PricingResponse & { status: number }> {
    const response = await fetch(`${server.baseUrl}/api/pricing`, { headers: cookie ? { cookie } : {} });
    return { status: response.status, ...((await response.json()) as PricingResponse) };
  }
  const byName = (list: PricingEntry[]) => Object.fromEntries(list.map((entry) => [entry.model_name, entry]));

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    const options: Record<string, unknown> = {
      ModelRatio: { 'gpt-4o-mini': 0.075, 'claude-3-5-sonnet': 1.5, 'secret-model': 1 },
      CompletionRatio: { 'gpt-4o-mini': 4, 'claude-3-5-sonnet': 5 },
      CacheRatio: { 'gpt-4o-mini': 0.5 },
      ModelPrice: { mj_imagine: 0.1 },
      GroupRatio: { default: 1, vip: 1.5, internal: 0.5 },
      UserUsableGroups: { default: '默认分组', vip: 'VIP 分组' },
    };
    for (const [key, value] of Object.entries(options)) {
      const saved = await root.put('/api/option/', { key, value: JSON.stringify(value) });
      expect(saved.success, `${key}: ${saved.message}`).toBe(true);
    }
    await addChannel(root, {
      type: 1,
      key: 'k1',
      group: 'default,vip',
      models: 'gpt-4o-mini,mj_imagine,unpriced-model',
    });
    await addChannel(root, { type: 1, key: 'k2', group: 'internal,vip', models: 'claude-3-5-sonnet' });
    disabledChannel = await addChannel(root, { type: 1, key: 'k3', group: 'default', models: 'secret-model' });
    const disabled = await root.put('/api/channel/', { id: disabledChannel, status: 2 });
    expect(disabled.success, disabled.message).toBe(true);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists priced models of enabled channels for a visitor, with the default usable groups only', async () => {
    const answer = await pricing();
    expect(answer.status).toBe(200);
    expect(answer.success).toBe(true);
    // Per-token first, gpt names first among them, then by name; the fixed-price model last.
    expect(answer.data.map((entry) => entry.model_name)).toEqual(['gpt-4o-mini', 'claude-3-5-sonnet', 'mj_imagine']);
    const models = byName(answer.data);
    expect(models['gpt-4o-mini']).toEqual({
      model_name: 'gpt-4o-mini',
      quota_type: 0,
      model_ratio: 0.075,
      completion_ratio: 4,
      model_price: 0,
      cache_ratio: 0.5,
      enable_groups: ['default', 'vip'],
    });
    expect(models.mj_imagine).toMatchObject({ quota_type: 1, model_price: 0.1, enable_groups: ['default', 'vip'] });
    // The internal group is not the visitor's business: neither its ratio nor its name is shown.
    expect(models['claude-3-5-sonnet']).toMatchObject({
      model_ratio: 1.5,
      completion_ratio: 5,
      enable_groups: ['vip'],
    });
    expect(answer.group_ratio).toEqual({ default: 1, vip: 1.5 });
    expect(answer.usable_group).toEqual({ default: '默认分组', vip: 'VIP 分组' });
  });

  it('hides unpriced models and models whose only channel is disabled', async () => {
    const names = (await pricing()).data.map((entry) => entry.model_name);
    expect(names).not.toContain('unpriced-model');
    expect(names).not.toContain('secret-model');
  });

  it("adds a signed-in user's own group and its ratio", async () => {
    const insider = await signedInUser(server.baseUrl, server.ctx.repos, 'insider', 'internal');
    const answer = await pricing(insider.sessionCookie);
    expect(answer.group_ratio).toEqual({ default: 1, vip: 1.5, internal: 0.5 });
    expect(answer.usable_group).toMatchObject({ internal: 'internal' });
    expect(byName(answer.data)['claude-3-5-sonnet']!.enable_groups).toEqual(['internal', 'vip']);
  });

  it('lists unpriced models at ratio 37.5 for a user who accepts them, and for everyone in self-use mode', async () => {
    const relaxed = await signedInUser(server.baseUrl, server.ctx.repos, 'relaxed');
    const saved = await relaxed.put('/api/user/setting', { accept_unset_model_ratio_model: true });
    expect(saved.success, saved.message).toBe(true);
    expect(byName((await pricing(relaxed.sessionCookie)).data)['unpriced-model']).toMatchObject({
      quota_type: 0,
      model_ratio: 37.5,
    });
    expect(byName((await pricing()).data)['unpriced-model']).toBeUndefined();

    await root.put('/api/option/', { key: 'SelfUseModeEnabled', value: 'true' });
    expect(byName((await pricing()).data)['unpriced-model']).toMatchObject({ model_ratio: 37.5 });
    await root.put('/api/option/', { key: 'SelfUseModeEnabled', value: 'false' });
  });

  it('treats a stale or forged session as a visitor instead of refusing', async () => {
    const answer = await pricing('session=forged.cookie');
    expect([answer.status, answer.success]).toEqual([200, true]);
    expect(answer.group_ratio).toEqual({ default: 1, vip: 1.5 });
  });

  it('follows option and channel changes at once', async () => {
    await root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ 'gpt-4o-mini': 0.1, 'secret-model': 1 }),
    });
    await root.put('/api/option/', { key: 'GroupRatio', value: JSON.stringify({ default: 1, vip: 2 }) });
    await root.put('/api/channel/', { id: disabledChannel, status: 1 });
    const answer = await pricing();
    const models = byName(answer.data);
    expect(models['gpt-4o-mini']!.model_ratio).toBe(0.1);
    // claude lost its ratio: no longer priced, no longer listed.
    expect(models['claude-3-5-sonnet']).toBeUndefined();
    expect(models['secret-model']).toMatchObject({ model_ratio: 1, enable_groups: ['default'] });
    expect(answer.group_ratio).toEqual({ default: 1, vip: 2 });
  });
});
