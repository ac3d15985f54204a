import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

interface TokenView {
  id: number;
  key: string;
  name: string;
  status: number;
  remain_quota: number;
  unlimited_quota: boolean;
  expired_time: number;
  group: string;
  allow_ips: string;
}
interface TokenPage {
  items: TokenView[];
  total: number;
  page: number;
  page_size: number;
}

describe.each(dialects)('API tokens on %s', (dialect) => {
  let server: TestServer;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    await setupAndLogin(server.baseUrl);
    alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob');
  });
  afterAll(async () => server?.close());

  it('creates a token with a 48-character random key and the documented defaults', async () => {
    const created = await alice.post<Array<{ name: string; key: string }>>('/api/token/', { name: '我的令牌' });
    expect(created.success).toBe(true);
    expect(created.data).toHaveLength(1);
    expect(created.data[0]!.key).toMatch(/^[A-Za-z0-9]{48}$/);
    const page = await alice.get<TokenPage>('/api/token/?p=1&size=10');
    expect(page.data).toMatchObject({ total: 1, page: 1, page_size: 10 });
    expect(page.data.items[0]).toMatchObject({
      name: '我的令牌',
      remain_quota: 500000,
      expired_time: -1,
      status: 1,
      unlimited_quota: false,
    });
  });

  it('creates a batch in one transaction with random 6-character suffixes', async () => {
    const created = await alice.post<Array<{ name: string; key: string }>>('/api/token/', {
      name: 'batch',
      count: 10,
      unlimited_quota: true,
    });
    expect(created.data).toHaveLength(10);
    expect(created.data[0]!.name).toBe('batch');
    expect(created.data.slice(1).every((token) => /^batch-[A-Za-z0-9]{6}$/.test(token.name))).toBe(true);
    expect(new Set(created.data.map((token) => token.key)).size).toBe(10);
    const search = await alice.get<TokenPage>('/api/token/search?keyword=batch');
    expect(search.data.total).toBe(10);
  });

  it('searches by key with or without the sk- prefix, and escapes wildcards', async () => {
    const page = await alice.get<TokenPage>('/api/token/?page_size=100');
    const key = page.data.items[0]!.key;
    expect((await alice.get<TokenPage>(`/api/token/search?token=sk-${key.slice(0, 20)}`)).data.total).toBe(1);
    expect((await alice.get<TokenPage>('/api/token/search?keyword=%25')).data.total).toBe(0);
    expect((await alice.get<TokenPage>('/api/token/search?keyword=_')).data.total).toBe(0);
  });

  it('refuses bad input with a clear message and creates nothing', async () => {
    const before = (await alice.get<TokenPage>('/api/token/')).data.total;
    const cases: Array<[object, string]> = [
      [{}, '请输入令牌名称'],
      [{ name: '   ' }, '请输入令牌名称'],
      [{ name: 'x'.repeat(51) }, '令牌名称过长（最多 50 个字符）'],
      [{ name: 'q', remain_quota: -1 }, '额度必须是不小于 0 的整数'],
      [{ name: 'q', remain_quota: 1.5 }, '额度必须是不小于 0 的整数'],
      [{ name: 'q', remain_quota: '100' }, '无效的参数'],
      [{ name: 'q', expired_time: -5 }, '过期时间格式错误！'],
      [{ name: 'q', allow_ips: '10.0.0.1\nnot-an-ip' }, 'IP 白名单格式错误：每行一个 IP 或 CIDR'],
      [{ name: 'q', allow_ips: '10.0.0.0/33' }, 'IP 白名单格式错误：每行一个 IP 或 CIDR'],
      [{ name: 'q', count: 0 }, '批量创建数量必须是 1 到 100 之间的整数'],
      [{ name: 'q', count: 101 }, '批量创建数量必须是 1 到 100 之间的整数'],
      [{ name: 'q', group: 'svip' }, '无权使用分组 svip'],
    ];
    for (const [body, message] of cases) {
      expect(await alice.post('/api/token/', body)).toMatchObject({ success: false, message });
    }
    expect((await alice.get<TokenPage>('/api/token/')).data.total).toBe(before);
  });

  it('accepts IPs and CIDRs (v4 and v6) and a usable group', async () => {
    const created = await alice.post('/api/token/', {
      name: 'restricted',
      allow_ips: '127.0.0.1\n10.0.0.0/8\n::1\n2001:db8::/32',
      group: 'vip',
    });
    expect(created.success).toBe(true);
  });

  it('never lets one user read, change or delete another user’s token', async () => {
    const mine = (await alice.get<TokenPage>('/api/token/')).data.items[0]!;
    expect(await bob.get(`/api/token/${mine.id}`)).toMatchObject({ success: false, message: '令牌不存在' });
    expect((await bob.put('/api/token/', { ...mine, name: 'stolen' })).success).toBe(false);
    expect((await bob.put('/api/token/?status_only=true', { id: mine.id, status: 2 })).success).toBe(false);
    expect((await bob.delete(`/api/token/${mine.id}`)).success).toBe(false);
    expect((await bob.post('/api/token/batch', { ids: [mine.id] })).data).toBe(0);
    expect((await bob.get<TokenPage>('/api/token/')).data.total).toBe(0);
    expect((await bob.get<TokenPage>(`/api/token/search?token=${mine.key}`)).data.total).toBe(0);
    const after = await alice.get<TokenView>(`/api/token/${mine.id}`);
    expect(after.data).toMatchObject({ name: mine.name, status: 1 });
  });

  it('edits a token and toggles its status, refusing to enable an expired one', async () => {
    const token = (await alice.get<TokenPage>('/api/token/search?keyword=我的令牌')).data.items[0]!;
    const edited = await alice.put<TokenView>('/api/token/', {
      ...token,
      name: '改名',
      remain_quota: 42,
      expired_time: 1,
    });
    expect(edited.data).toMatchObject({ name: '改名', remain_quota: 42, status: 3 });
    const enable = await alice.put('/api/token/?status_only=true', { id: token.id, status: 1 });
    expect(enable).toMatchObject({
      success: false,
      message: '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期',
    });
    expect((await alice.put('/api/token/?status_only=true', { id: token.id, status: 2 })).data).toMatchObject({
      status: 2,
    });
    expect((await alice.put('/api/token/?status_only=true', { id: token.id, status: 7 })).message).toBe(
      '无效的令牌状态',
    );
    const revived = await alice.put<TokenView>('/api/token/', {
      ...token,
      name: '改名',
      remain_quota: 0,
      expired_time: -1,
    });
    expect(revived.data.status).toBe(2);
    await alice
      .put('/api/token/?status_only=true', { id: token.id, status: 1 })
      .then((result) =>
        expect(result.message).toBe('令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度'),
      );
  });

  it('deletes one and many, and lists the usable groups with ratios', async () => {
    const page = await alice.get<TokenPage>('/api/token/?page_size=100');
    const ids = page.data.items.map((token) => token.id);
    expect((await alice.delete(`/api/token/${ids[0]}`)).success).toBe(true);
    expect((await alice.post('/api/token/batch', { ids: ids.slice(1, 4) })).data).toBe(3);
    expect((await alice.get<TokenPage>('/api/token/')).data.total).toBe(ids.length - 4);
    const groups = await alice.get<Record<string, { desc: string; ratio: number }>>('/api/user/self/groups');
    expect(groups.data).toEqual({ default: { desc: '默认分组', ratio: 1 }, vip: { desc: 'vip分组', ratio: 1 } });
  });

  it('needs a signed-in user', async () => {
    const response = await fetch(`${server.baseUrl}/api/token/`);
    expect(response.status).toBe(401);
  });
});
