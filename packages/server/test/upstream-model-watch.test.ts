import type { ChannelView } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchUpstreamModels } from '../src/jobs/upstream-model-watch.js';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { addChannel } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type ModelListUpstream, startModelListUpstream } from './mock-upstream/model-list.js';

const dialects = await availableDialects();

const settingsOf = (channel: ChannelView) => JSON.parse(channel.settings || '{}') as Record<string, unknown>;

describe.each(dialects)('the upstream model watch on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let upstream: ModelListUpstream;
  let watched: number;
  let synced: number;
  let unwatched: number;

  const channel = async (id: number) => (await root.get<ChannelView>(`/api/channel/${id}`)).data;

  beforeAll(async () => {
    upstream = await startModelListUpstream('sk-watch', ['model-a', 'model-b']);
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    expect((await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' })).success).toBe(
      true,
    );
    const watch = (autoSync: boolean) =>
      JSON.stringify({ upstream_model_update_check_enabled: true, upstream_model_update_auto_sync_enabled: autoSync });
    const common = { type: 1, key: 'sk-watch', base_url: upstream.baseUrl, models: 'model-a,model-b' };
    watched = await addChannel(root, { ...common, name: 'watched', settings: watch(false) });
    synced = await addChannel(root, { ...common, name: 'synced', settings: watch(true) });
    unwatched = await addChannel(root, { ...common, name: 'unwatched' });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it('records what the upstream added and dropped, adds it where asked, and leaves other channels alone', async () => {
    upstream.models.splice(0, upstream.models.length, 'model-a', 'model-c', 'model-d');
    const outcomes = await watchUpstreamModels(server.ctx);
    expect(outcomes.map((outcome) => outcome.channelId).sort()).toEqual([watched, synced].sort());

    const noticed = await channel(watched);
    expect(noticed.models).toBe('model-a,model-b');
    expect(settingsOf(noticed)).toMatchObject({
      upstream_model_update_last_detected_models: ['model-c', 'model-d'],
      upstream_model_update_last_removed_models: ['model-b'],
    });
    expect(Number(settingsOf(noticed).upstream_model_update_last_check_time)).toBeGreaterThan(0);

    const added = await channel(synced);
    expect(added.models).toBe('model-a,model-b,model-c,model-d');
    expect(settingsOf(added).upstream_model_update_last_detected_models).toEqual([]);
    // The relay serves the added models at once (abilities and cache).
    expect(server.ctx.channelCache.candidates('default', 'model-d').map((one) => one.id)).toContain(synced);

    expect(settingsOf(await channel(unwatched))).toEqual({});
  });

  it('is turned on from the console for a channel that had no settings', async () => {
    const turned = await root.put<ChannelView>(`/api/channel/${unwatched}/upstream_models/watch`, {
      check_enabled: true,
      auto_sync: false,
    });
    expect(turned.success, turned.message).toBe(true);
    expect(settingsOf(turned.data)).toEqual({
      upstream_model_update_check_enabled: true,
      upstream_model_update_auto_sync_enabled: false,
    });
    const outcomes = await watchUpstreamModels(server.ctx);
    expect(outcomes.map((outcome) => outcome.channelId)).toContain(unwatched);
  });

  it('lets root add, remove and ignore what was found, audited; a user cannot', async () => {
    const applied = await root.post<ChannelView>(`/api/channel/${watched}/upstream_models/apply`, {
      add: ['model-c'],
      remove: ['model-b'],
      ignore: ['model-d'],
    });
    expect(applied.success, applied.message).toBe(true);
    expect(applied.data.models).toBe('model-a,model-c');
    expect(settingsOf(applied.data)).toMatchObject({
      upstream_model_update_ignored_models: ['model-d'],
      upstream_model_update_last_detected_models: [],
      upstream_model_update_last_removed_models: [],
    });
    // An ignored model is not reported again.
    await root.post(`/api/channel/${watched}/upstream_models/check`, {});
    expect(settingsOf(await channel(watched)).upstream_model_update_last_detected_models).toEqual([]);
    const audit = await root.get<{ items: Array<{ action: string; target_id: string }> }>(
      '/api/audit/?p=1&page_size=20',
    );
    expect(audit.data.items.some((row) => row.action === 'channel.update' && row.target_id === String(watched))).toBe(
      true,
    );

    const user = await signedInUser(server.baseUrl, server.ctx.repos, 'watcher');
    const refused = await user.post(`/api/channel/${watched}/upstream_models/apply`, { add: ['x'] });
    expect(refused.success).toBe(false);
    expect((await channel(watched)).models).toBe('model-a,model-c');
  });

  it('keeps its last findings when the upstream cannot be read, and says why on a check from the console', async () => {
    const broken = await addChannel(root, {
      type: 1,
      key: 'sk-wrong',
      base_url: upstream.baseUrl,
      models: 'model-a',
      settings: JSON.stringify({ upstream_model_update_check_enabled: true }),
    });
    const checked = await root.post(`/api/channel/${broken}/upstream_models/check`, {});
    expect(checked.success).toBe(false);
    expect(checked.message).toContain('401');
    expect(settingsOf(await channel(broken)).upstream_model_update_last_check_time).toBeUndefined();
  });

  it('keeps the stored settings when an edit from the console omits them', async () => {
    const before = await channel(watched);
    const saved = await root.put<ChannelView>('/api/channel/', { ...before, key: '', settings: undefined });
    expect(saved.success, saved.message).toBe(true);
    expect(saved.data.settings).toBe(before.settings);
  });
});
