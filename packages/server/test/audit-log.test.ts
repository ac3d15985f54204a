import { type AuditChangeView, type AuditLogView, translate } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

// The answer's shape is the one the console reads.
type AuditRow = AuditLogView;

interface AuditPage {
  items: AuditRow[];
  total: number;
  page: number;
  page_size: number;
}

const byField = (changes: AuditChangeView[]) => [...changes].sort((a, b) => a.field.localeCompare(b.field));

describe.each(dialects)('audit log on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let alice: ApiClient;
  const startedAt = Math.floor(Date.now() / 1000);

  const audit = async (query: string, client: ApiClient = root) => {
    const result = await client.get<AuditPage>(`/api/audit/?page_size=100&${query}`);
    expect(result.success, result.message).toBe(true);
    return result.data;
  };
  /** The newest row of an action (on a target): the one the change just wrote. */
  const latest = async (action: string, targetId?: string | number) => {
    const page = await audit(`action=${action}${targetId === undefined ? '' : `&target_id=${targetId}`}`);
    expect(page.items.length, `no ${action} row`).toBeGreaterThan(0);
    return page.items[0]!;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
  });
  afterAll(async () => server?.close());

  it('records sign-ins with the actor and address, and failed ones with the name typed, never the password', async () => {
    const signIn = await latest('user.login', root.userId!);
    expect(signIn).toMatchObject({
      actor_id: root.userId,
      actor_username: 'root',
      target_type: 'user',
      ip: '127.0.0.1',
      diff: [],
    });

    const stranger = new ApiClient(server.baseUrl);
    expect((await stranger.post('/api/user/login', { username: 'mallory', password: 'guessed-pass-1' })).success).toBe(
      false,
    );
    expect((await stranger.post('/api/user/login', { username: 'root', password: 'wrong-root-pass' })).success).toBe(
      false,
    );
    const failed = await audit('action=user.login_failed');
    expect(failed.items.map((row) => row.target_id)).toEqual(['root', 'mallory']);
    expect(failed.items[1]).toMatchObject({
      actor_id: null,
      actor_username: null,
      target_type: 'user',
      ip: '127.0.0.1',
      diff: [],
    });
    const text = JSON.stringify(failed);
    expect(text).not.toContain('guessed-pass-1');
    expect(text).not.toContain('wrong-root-pass');
  });

  it('records user creation, edits and every manage action with field diffs and masked password hashes', async () => {
    expect((await root.post('/api/user/', { username: 'bob', password: 'bobpass123', display_name: '' })).success).toBe(
      true,
    );
    const created = await latest('user.create');
    const bob = (await server.ctx.repos.users.findForLogin('bob'))!;
    expect(created).toMatchObject({ actor_username: 'root', target_type: 'user', target_id: String(bob.id) });
    expect(created.diff).toContainEqual({ field: 'username', before: null, after: 'bob' });
    expect(created.diff).toContainEqual({ field: 'password', before: null, after: '***' });
    expect(JSON.stringify(created)).not.toContain(bob.password);

    const edit = await root.put('/api/user/', {
      id: bob.id,
      username: 'bob',
      display_name: 'Bobby',
      group: 'default',
      quota: 500000,
      password: 'bobpass456',
    });
    expect(edit.success, edit.message).toBe(true);
    const edited = await latest('user.update', bob.id);
    expect(byField(edited.diff)).toEqual([
      { field: 'display_name', before: 'bob', after: 'Bobby' },
      { field: 'password', before: '***', after: '***' },
      { field: 'quota', before: 0, after: 500000 },
    ]);

    const manage = async (action: string, value?: number) => {
      const result = await root.post('/api/user/manage', { id: bob.id, action, value });
      expect(result.success, result.message).toBe(true);
      return (await latest(`user.${action}`, bob.id)).diff;
    };
    expect(await manage('add_quota', 100)).toEqual([{ field: 'quota', before: 500000, after: 500100 }]);
    expect(await manage('promote')).toEqual([{ field: 'role', before: 1, after: 10 }]);
    expect(await manage('demote')).toEqual([{ field: 'role', before: 10, after: 1 }]);
    expect(await manage('disable')).toEqual([{ field: 'status', before: 1, after: 2 }]);
    expect(await manage('enable')).toEqual([{ field: 'status', before: 2, after: 1 }]);
    const deleted = await manage('delete');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ field: 'deleted_at', before: null });
    expect(deleted[0]!.after).toBeGreaterThanOrEqual(startedAt);
  });

  it('records channel changes per channel with the key masked and never stored', async () => {
    const create = await root.post<number[]>('/api/channel/', {
      type: 1,
      name: 'audited-main',
      key: 'sk-upstream-secret-1',
      models: 'gpt-4o',
      group: 'default',
    });
    expect(create.success, create.message).toBe(true);
    const id = create.data[0]!;
    const created = await latest('channel.create', id);
    expect(created.diff).toContainEqual({ field: 'name', before: null, after: 'audited-main' });
    expect(created.diff).toContainEqual({ field: 'key', before: null, after: '***' });

    const channel = (await root.get<Record<string, unknown>>(`/api/channel/${id}`)).data;
    const save = (changes: Record<string, unknown>) => root.put('/api/channel/', { ...channel, ...changes });
    expect((await save({ name: 'audited-renamed', key: 'sk-upstream-secret-2' })).success).toBe(true);
    expect(byField((await latest('channel.update', id)).diff)).toEqual([
      { field: 'key', before: '***', after: '***' },
      { field: 'name', before: 'audited-main', after: 'audited-renamed' },
    ]);
    // Saving the form without typing a key keeps it: the row says only what changed.
    expect((await save({ name: 'audited-renamed', key: '', weight: 5 })).success).toBe(true);
    expect((await latest('channel.update', id)).diff).toEqual([{ field: 'weight', before: 0, after: 5 }]);

    expect((await root.put('/api/channel/', { id, status: 2 })).success).toBe(true);
    expect((await latest('channel.status', id)).diff).toContainEqual({ field: 'status', before: 1, after: 2 });

    expect((await root.post('/api/channel/batch/tag', { ids: [id], tag: 'audit-tag' })).success).toBe(true);
    expect((await latest('channel.batch_tag', id)).diff).toEqual([{ field: 'tag', before: null, after: 'audit-tag' }]);
    expect((await root.put('/api/channel/tag', { tag: 'audit-tag', priority: 7 })).success).toBe(true);
    expect((await latest('channel.tag_update', id)).diff).toEqual([{ field: 'priority', before: 0, after: 7 }]);

    expect((await root.delete(`/api/channel/${id}`)).success).toBe(true);
    const deleted = await latest('channel.delete', id);
    expect(deleted.diff).toContainEqual({ field: 'name', before: 'audited-renamed', after: null });
    expect(deleted.diff).toContainEqual({ field: 'key', before: '***', after: null });

    const stored = JSON.stringify(await server.ctx.repos.auditLogs.list({ targetType: 'channel' }, 0, 1000));
    expect(stored).not.toContain('sk-upstream-secret');
    expect(stored).not.toContain('enc:v1');
  });

  it('records options with secrets masked and price maps entry by entry', async () => {
    expect((await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-secret-value' })).success).toBe(true);
    const secret = await latest('option.update', 'SMTPToken');
    expect(secret).toMatchObject({ actor_username: 'root', target_type: 'option' });
    expect(secret.diff).toEqual([{ field: 'SMTPToken', before: '', after: '***' }]);
    expect(JSON.stringify(await server.ctx.repos.auditLogs.list({}, 0, 1000))).not.toContain('smtp-secret-value');

    const options = (await root.get<Array<{ key: string; value: string }>>('/api/option/')).data;
    const before = JSON.parse(options.find((option) => option.key === 'GroupRatio')!.value) as Record<string, number>;
    const after = { ...before, vip: 0.5, gold: 2 };
    delete (after as Record<string, number>).svip;
    const saved = await root.put('/api/option/', { key: 'GroupRatio', value: JSON.stringify(after) });
    expect(saved.success, saved.message).toBe(true);
    expect(byField((await latest('option.update', 'GroupRatio')).diff)).toEqual(
      byField([
        ...('svip' in before ? [{ field: 'GroupRatio.svip', before: before.svip, after: null }] : []),
        { field: 'GroupRatio.vip', before: before.vip ?? null, after: 0.5 },
        { field: 'GroupRatio.gold', before: null, after: 2 },
      ]),
    );

    expect((await root.put('/api/option/', { key: 'QuotaForNewUser', value: '42' })).success).toBe(true);
    expect((await latest('option.update', 'QuotaForNewUser')).diff).toEqual([
      { field: 'QuotaForNewUser', before: '0', after: '42' },
    ]);
  });

  it('records redemption codes created, edited, disabled and deleted, with the code itself masked', async () => {
    const create = await root.post<string[]>('/api/redemption/', { name: 'promo', quota: 1000, count: 2 });
    expect(create.success, create.message).toBe(true);
    const rows = await audit('action=redemption.create');
    expect(rows.total).toBe(2);
    expect(rows.items[0]!.diff).toContainEqual({ field: 'key', before: null, after: '***' });
    expect(rows.items[0]!.diff).toContainEqual({ field: 'quota', before: null, after: 1000 });
    for (const code of create.data) expect(JSON.stringify(rows)).not.toContain(code);

    const id = Number(rows.items[0]!.target_id);
    const edit = await root.put('/api/redemption/', { id, name: 'promo-2', quota: 2000, expired_time: 0 });
    expect(edit.success, edit.message).toBe(true);
    expect(byField((await latest('redemption.update', id)).diff)).toEqual([
      { field: 'name', before: 'promo', after: 'promo-2' },
      { field: 'quota', before: 1000, after: 2000 },
    ]);
    expect((await root.put('/api/redemption/?status_only=true', { id, status: 2 })).success).toBe(true);
    expect((await latest('redemption.status', id)).diff).toEqual([{ field: 'status', before: 1, after: 2 }]);
    expect((await root.delete(`/api/redemption/${id}`)).success).toBe(true);
    expect((await latest('redemption.delete', id)).diff).toContainEqual({
      field: 'name',
      before: 'promo-2',
      after: null,
    });
  });

  it('filters by action, actor, target type and time, pages, and hides option rows from admins below root', async () => {
    const all = await audit('');
    expect(all.total).toBeGreaterThan(20);
    const byRoot = await audit('actor=root');
    expect(byRoot.items.every((row) => row.actor_username === 'root')).toBe(true);
    expect(byRoot.total).toBeLessThan(all.total);
    expect((await audit('actor=alice')).items.map((row) => row.action)).toEqual(['user.login']);
    const channels = await audit('target_type=channel');
    expect(channels.total).toBeGreaterThan(0);
    expect(channels.items.every((row) => row.target_type === 'channel')).toBe(true);
    expect((await audit(`start_timestamp=${startedAt + 3600}`)).total).toBe(0);
    expect((await audit(`end_timestamp=${startedAt - 1}`)).total).toBe(0);
    expect((await audit(`start_timestamp=${startedAt}&end_timestamp=${startedAt + 3600}`)).total).toBe(all.total);

    const paged = await root.get<AuditPage>('/api/audit/?p=2&page_size=3');
    expect(paged.data).toMatchObject({ page: 2, page_size: 3, total: all.total });
    expect(paged.data.items.map((row) => row.id)).toEqual(all.items.slice(3, 6).map((row) => row.id));

    // An admin (not root) sees the admins' work but not option values, which only root may read.
    await root.post('/api/user/', { username: 'carol', password: 'carolpass123', display_name: '' });
    const carolId = (await server.ctx.repos.users.findForLogin('carol'))!.id;
    expect((await root.post('/api/user/manage', { id: carolId, action: 'promote' })).success).toBe(true);
    const carol = new ApiClient(server.baseUrl);
    await carol.login('carol', 'carolpass123');
    expect((await audit('target_type=option')).total).toBeGreaterThan(0);
    expect((await audit('target_type=option', carol)).total).toBe(0);
    expect((await audit('target_type=channel', carol)).total).toBe(channels.total);
  });

  it('refuses ordinary users', async () => {
    const refused = await alice.get('/api/audit/');
    // The HTTP status follows the guard's convention (the family answers 200); the envelope is the refusal.
    expect(refused.success).toBe(false);
    expect(refused.message).toBe(translate('permission_denied', 'zh'));
    expect(refused.data).toBeUndefined();
  });

  it('clears audit rows older than the log clear target, and records who cleared', async () => {
    const old = startedAt - 86400 * 40;
    await server.ctx.repos.auditLogs.insertMany([
      {
        created_at: old,
        actor_id: root.userId,
        actor_username: 'root',
        action: 'channel.update',
        target_type: 'channel',
        target_id: '999',
        ip: '10.0.0.1',
        diff: '[]',
      },
    ]);
    const before = await audit('');
    expect(before.items.some((row) => row.target_id === '999')).toBe(true);

    const target = startedAt - 86400 * 30;
    const cleared = await root.delete(`/api/log/?target_timestamp=${target}`);
    expect(cleared.success, cleared.message).toBe(true);
    const after = await audit('');
    expect(after.items.some((row) => row.target_id === '999')).toBe(false);
    expect(after.items.filter((row) => row.action !== 'log.clear')).toHaveLength(before.total - 1);
    expect((await latest('log.clear')).diff).toEqual([{ field: 'target_timestamp', before: null, after: target }]);
  });
});
