import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

interface ChannelView {
  id: number;
  name: string;
  key: string;
  type: number;
  status: number;
  models: string;
  group: string;
  tag: string | null;
  priority: number;
  weight: number;
  base_url: string;
  other_info: string | null;
}
interface ChannelPage {
  items: ChannelView[];
  total: number;
}

const base = {
  type: 1,
  name: 'openai-main',
  key: 'sk-upstream-secret-1',
  models: 'gpt-4o,gpt-4o-mini',
  group: 'default',
  base_url: 'https://api.example.com/',
  priority: 0,
  weight: 0,
};

describe.each(dialects)('channel management on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  const abilities = (channelId: number) => server.ctx.repos.abilities.forChannel(channelId);
  const listAll = async (query = '') => (await root.get<ChannelPage>(`/api/channel/?page_size=100${query}`)).data;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => server?.close());

  it('creates a channel, strips the trailing slash, and builds its abilities in the same step', async () => {
    const created = await root.post<number[]>('/api/channel/', { ...base, group: 'default,vip' });
    expect(created.success).toBe(true);
    const [id] = created.data;
    const channel = (await root.get<ChannelView>(`/api/channel/${id}`)).data;
    expect(channel).toMatchObject({ name: 'openai-main', base_url: 'https://api.example.com', status: 1, key: '' });
    const rows = await abilities(id!);
    expect(rows.map((row) => `${row.group}/${row.model}`).sort()).toEqual([
      'default/gpt-4o',
      'default/gpt-4o-mini',
      'vip/gpt-4o',
      'vip/gpt-4o-mini',
    ]);
  });

  it('never returns a channel key, and stores it encrypted', async () => {
    const everything = JSON.stringify([
      await root.get('/api/channel/?page_size=100'),
      await root.get('/api/channel/search?keyword=openai'),
      await root.get('/api/channel/?tag_mode=true'),
    ]);
    expect(everything).not.toContain('sk-upstream-secret-1');
    const stored = await server.ctx.repos.channels.all();
    expect(stored[0]!.key).toMatch(/^enc:v1:/);
    expect(server.ctx.channelWriter.key(stored[0]!)).toBe('sk-upstream-secret-1');
  });

  it('creates one channel per key line in batch, in one transaction', async () => {
    const created = await root.post<number[]>('/api/channel/', {
      mode: 'batch',
      channel: { ...base, name: 'batch', key: 'k-one\nk-two\n\nk-three\nk-two' },
    });
    expect(created.data).toHaveLength(3);
    const single = await root.post<number[]>('/api/channel/', {
      mode: 'single',
      channel: { ...base, name: 'single', key: 'a\nb' },
    });
    expect(single.data).toHaveLength(1);
  });

  it('refuses invalid channels with the spec’s words and writes nothing', async () => {
    const before = (await listAll()).total;
    const cases: Array<[object, string]> = [
      [{ ...base, name: '' }, '请填写渠道名称和渠道密钥！'],
      [{ ...base, key: '' }, '请填写渠道名称和渠道密钥！'],
      [{ ...base, models: '' }, '请至少选择一个模型！'],
      [{ ...base, model_mapping: '{not json' }, '模型映射必须是合法的 JSON 格式！'],
      [{ ...base, priority: -1000 }, ''],
      [{ ...base, weight: -1 }, ''],
      [{ ...base, type: 999 }, ''],
      [{ ...base, status_code_mapping: '[1,2]' }, ''],
    ];
    for (const [body, message] of cases) {
      const result = await root.post('/api/channel/', body);
      expect(result.success).toBe(false);
      if (message) expect(result.message).toBe(message);
      else expect(result.message.length).toBeGreaterThan(2);
    }
    expect((await listAll()).total).toBe(before);
  });

  it('edits with an empty key meaning unchanged, and keeps abilities in step', async () => {
    const [channel] = (await root.get<ChannelPage>('/api/channel/search?keyword=openai-main')).data.items;
    const edited = await root.put<ChannelView>('/api/channel/', {
      ...channel,
      key: '',
      models: ['gpt-4.1'],
      group: 'default',
      priority: 7,
    });
    expect(edited.data).toMatchObject({ models: 'gpt-4.1', priority: 7 });
    const stored = (await server.ctx.repos.channels.findById(channel!.id))!;
    expect(server.ctx.channelWriter.key(stored)).toBe('sk-upstream-secret-1');
    expect((await abilities(channel!.id)).map((row) => `${row.group}/${row.model}/${row.priority}`)).toEqual([
      'default/gpt-4.1/7',
    ]);
  });

  it('disables and re-enables through the status-only update, mirrored in abilities', async () => {
    const [channel] = (await root.get<ChannelPage>('/api/channel/search?keyword=openai-main')).data.items;
    expect((await root.put('/api/channel/', { id: channel!.id, status: 2 })).data).toMatchObject({ status: 2 });
    expect((await abilities(channel!.id)).every((row) => row.enabled === 0)).toBe(true);
    await root.put('/api/channel/', { id: channel!.id, status: 1, weight: 5 });
    const rows = await abilities(channel!.id);
    expect(rows.every((row) => row.enabled === 1 && row.weight === 5)).toBe(true);
    expect((await root.put('/api/channel/', { id: channel!.id, weight: -3 })).success).toBe(false);
  });

  it('records reason and time when a channel is auto-disabled', async () => {
    const [channel] = (await root.get<ChannelPage>('/api/channel/search?keyword=single')).data.items;
    await server.ctx.channelWriter.setStatus(channel!.id, 3, 'Your credit balance is too low');
    const view = (await root.get<ChannelView>(`/api/channel/${channel!.id}`)).data;
    expect(view.status).toBe(3);
    expect(JSON.parse(view.other_info!)).toMatchObject({ status_reason: 'Your credit balance is too low' });
  });

  it('searches by keyword (name, id, base URL), group and model', async () => {
    const all = await listAll();
    const someId = all.items[0]!.id;
    expect(
      (await root.get<ChannelPage>(`/api/channel/search?keyword=${someId}`)).data.items.map((c) => c.id),
    ).toContain(someId);
    expect((await root.get<ChannelPage>('/api/channel/search?keyword=example.com')).data.total).toBe(all.total);
    expect((await root.get<ChannelPage>('/api/channel/search?group=vip')).data.total).toBe(0);
    expect((await root.get<ChannelPage>('/api/channel/search?model=gpt-4.1')).data.total).toBe(1);
    expect((await root.get<ChannelPage>('/api/channel/search?group=defaul')).data.total).toBe(0);
  });

  it('tags channels, lists them by tag rows, and edits, disables and dissolves the tag', async () => {
    const batch = (await root.get<ChannelPage>('/api/channel/search?keyword=batch')).data.items.map((c) => c.id);
    expect((await root.post('/api/channel/batch/tag', { ids: batch, tag: '批量' })).data).toBe(3);
    const tagMode = await root.get<ChannelPage>('/api/channel/?tag_mode=true&page_size=2&id_sort=true');
    const all = await listAll();
    expect(tagMode.data.total).toBe(all.total - 2);
    await root.post('/api/channel/tag/disabled', { tag: '批量' });
    expect((await server.ctx.repos.channels.findByTag('批量')).every((c) => c.status === 2)).toBe(true);
    await root.post('/api/channel/tag/enabled', { tag: '批量' });
    const edited = await root.put('/api/channel/tag', { tag: '批量', priority: 3, models: 'gpt-4o', groups: ['vip'] });
    expect(edited.success).toBe(true);
    const abilityRows = await abilities(batch[0]!);
    expect(abilityRows.map((row) => `${row.group}/${row.model}/${row.priority}/${row.tag}`)).toEqual([
      'vip/gpt-4o/3/批量',
    ]);
    expect((await root.put('/api/channel/tag', { tag: '批量' })).message).toBe('没有任何修改');
    expect((await root.post('/api/channel/tag/enabled', { tag: '' })).message).toBe('标签不能为空');
    await root.put('/api/channel/tag', { tag: '批量', new_tag: '' });
    expect(await server.ctx.repos.channels.findByTag('批量')).toHaveLength(0);
  });

  it('copies a channel with its key', async () => {
    const [channel] = (await root.get<ChannelPage>('/api/channel/search?keyword=openai-main')).data.items;
    const copy = await root.post<{ id: number }>(`/api/channel/copy/${channel!.id}`);
    const stored = (await server.ctx.repos.channels.findById(copy.data.id))!;
    expect(stored.name).toBe('openai-main_copy');
    expect(server.ctx.channelWriter.key(stored)).toBe('sk-upstream-secret-1');
    expect(await abilities(copy.data.id)).toHaveLength(1);
  });

  it('deletes all disabled channels and reports the count; deletes by ids with their abilities', async () => {
    const before = (await listAll()).total;
    const deleted = await root.delete<number>('/api/channel/disabled');
    expect(deleted.data).toBe(1);
    const ids = (await listAll()).items.slice(0, 2).map((c) => c.id);
    expect((await root.post('/api/channel/batch', { ids })).data).toBe(2);
    expect((await listAll()).total).toBe(before - 3);
    for (const id of ids) expect(await abilities(id)).toHaveLength(0);
  });

  it('rebuilds the abilities table with fix', async () => {
    await server.ctx.db.kysely.deleteFrom('abilities').execute();
    const fixed = await root.post<{ success: number; fails: number }>('/api/channel/fix');
    expect(fixed.data).toEqual({ success: (await listAll()).total, fails: 0 });
    const count = await server.ctx.db.kysely
      .selectFrom('abilities')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(count?.n)).toBeGreaterThan(0);
  });

  it('lists built-in models per type and enabled models', async () => {
    const models = await root.get<Record<string, string[]>>('/api/models');
    expect(models.data['1']).toContain('gpt-4o');
    expect(models.data['36']).toEqual(expect.arrayContaining(['suno_music', 'suno_lyrics']));
    const enabled = await root.get<string[]>('/api/channel/models_enabled');
    expect(enabled.data).toEqual(['gpt-4o']);
  });

  it('is admin-only on the server', async () => {
    const user = await signedInUser(server.baseUrl, server.ctx.repos, 'plain');
    for (const [method, path] of [
      ['GET', '/api/channel/'],
      ['GET', '/api/channel/1'],
      ['POST', '/api/channel/'],
      ['PUT', '/api/channel/'],
      ['DELETE', '/api/channel/1'],
      ['DELETE', '/api/channel/disabled'],
      ['POST', '/api/channel/fix'],
      ['PUT', '/api/channel/tag'],
      ['GET', '/api/group/'],
    ] as const) {
      expect(
        refusal(await user.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : base)),
        path,
      ).toEqual(ROLE_REFUSED);
    }
  });
});
