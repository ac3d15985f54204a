import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { flushBilling } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

interface CodePage {
  items: Array<{ id: number; key: string; name: string; status: number; quota: number; used_user_id: number }>;
  total: number;
}

describe.each(dialects)('redemption codes and redeeming on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => server?.close());

  const create = async (body: object) => (await root.post<string[]>('/api/redemption/', body)).data;

  it('creates codes of 32 random characters and lists and searches them', async () => {
    const keys = await create({ name: '$0.20', quota: 100_000, count: 3 });
    expect(keys).toHaveLength(3);
    expect(keys.every((key) => /^[A-Za-z0-9]{32}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(3);
    const page = await root.get<CodePage>('/api/redemption/?p=1&page_size=10');
    expect(page.data.total).toBe(3);
    expect((await root.get<CodePage>('/api/redemption/search?keyword=0.20')).data.total).toBe(3);
  });

  it('refuses bad input and non-admins', async () => {
    const cases: Array<[object, string]> = [
      [{ quota: 1 }, '请输入兑换码名称'],
      [{ name: 'x', quota: 0 }, '额度必须是正整数'],
      [{ name: 'x', quota: 1.5 }, '额度必须是正整数'],
      [{ name: 'x', quota: 1, count: 101 }, '生成数量必须是 1 到 100 之间的整数'],
    ];
    for (const [body, message] of cases)
      expect(await root.post('/api/redemption/', body)).toMatchObject({ success: false, message });
    const user = await signedInUser(server.baseUrl, server.ctx.repos, 'plain');
    expect(refusal(await user.get('/api/redemption/'))).toEqual(ROLE_REFUSED);
    expect(refusal(await user.post('/api/redemption/', { name: 'x', quota: 1 }))).toEqual(ROLE_REFUSED);
  });

  it('credits exactly once when 20 users on two nodes race for one code, with a top-up record and log', async () => {
    const [key] = await create({ name: 'race', quota: 500_000, count: 1 });
    // A second node on the same database: the claim must hold across processes, not only inside one.
    const second = await startTestServer(dialect, {}, server.database);
    const users = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        signedInUser(index % 2 ? second.baseUrl : server.baseUrl, server.ctx.repos, `racer${index}`),
      ),
    );
    const results = await Promise.all(users.map((user) => user.post<number>('/api/user/topup', { key })));
    await second.close();
    const winners = results.filter((result) => result.success);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.data).toBe(500_000);
    expect(results.filter((result) => !result.success).every((result) => result.message === '该兑换码已被使用')).toBe(
      true,
    );
    const quotas = await Promise.all(
      users.map(async (user) => (await server.ctx.repos.users.findById(user.userId!))!.quota),
    );
    expect(quotas.filter((quota) => quota === 500_000)).toHaveLength(1);
    expect(quotas.filter((quota) => quota === 0)).toHaveLength(19);
    const code = (await root.get<CodePage>('/api/redemption/search?keyword=race')).data.items[0]!;
    expect(code.status).toBe(3);
    await flushBilling(server);
    const logs = await server.ctx.repos.logs.list({ type: 1 }, 0, 10);
    expect(logs.total).toBe(1);
    expect(logs.items[0]!.content).toContain('$1.00');
    expect(await server.ctx.repos.topUps.findByTradeNo(`REDEEM${code.id}`)).toMatchObject({
      amount: 500_000,
      status: 'success',
    });
  });

  it('redeemed quota is spendable at once (the relay ledger sees it)', async () => {
    const user = await signedInUser(server.baseUrl, server.ctx.repos, 'spender');
    await server.ctx.ledger.prepare(user.userId!, null);
    expect(server.ctx.ledger.available('user', user.userId!)).toBe(0);
    const [key] = await create({ name: 'spend', quota: 42, count: 1 });
    await user.post('/api/user/topup', { key });
    expect(server.ctx.ledger.available('user', user.userId!)).toBe(42);
    // The log keeps the family's Chinese line and, beside it, the facts the console renders in the reader's language.
    const rows = (await user.get<{ items: Array<{ content: string; other: string }> }>('/api/log/self?type=1')).data
      .items;
    expect(rows[0]!.content).toMatch(/^通过兑换码充值 /);
    expect(JSON.parse(rows[0]!.other)).toMatchObject({ content_key: 'redeem', content_params: { quota: 42 } });
  });

  it('refuses unknown, disabled and expired codes, and keeps used codes from being edited or enabled', async () => {
    const user = await signedInUser(server.baseUrl, server.ctx.repos, 'tester');
    expect(await user.post('/api/user/topup', { key: 'nope' })).toMatchObject({
      success: false,
      message: '无效的兑换码',
    });
    expect(await user.post('/api/user/topup', {})).toMatchObject({ success: false, message: '请输入兑换码！' });
    const [disabledKey] = await create({ name: 'disabled', quota: 10, count: 1 });
    const disabled = (await root.get<CodePage>('/api/redemption/search?keyword=disabled')).data.items[0]!;
    await root.put('/api/redemption/?status_only=true', { id: disabled.id, status: 2 });
    expect(await user.post('/api/user/topup', { key: disabledKey })).toMatchObject({
      success: false,
      message: '该兑换码已被禁用',
    });
    const [expiredKey] = await create({ name: 'expired', quota: 10, count: 1, expired_time: 1000 });
    expect(await user.post('/api/user/topup', { key: expiredKey })).toMatchObject({
      success: false,
      message: '该兑换码已过期',
    });

    const used = (await root.get<CodePage>('/api/redemption/search?keyword=race')).data.items[0]!;
    expect(await root.put('/api/redemption/', { id: used.id, name: 'new', quota: 1 })).toMatchObject({
      success: false,
      message: '兑换码已被使用，无法修改',
    });
    expect(await root.put('/api/redemption/?status_only=true', { id: used.id, status: 1 })).toMatchObject({
      success: false,
      message: '兑换码已被使用，无法启用',
    });
    const edited = await root.put<{ name: string; quota: number }>('/api/redemption/', {
      id: disabled.id,
      name: 'renamed',
      quota: 99,
    });
    expect(edited.data).toMatchObject({ name: 'renamed', quota: 99 });
    expect((await root.delete(`/api/redemption/${disabled.id}`)).success).toBe(true);
    expect((await root.get(`/api/redemption/${disabled.id}`)).message).toBe('兑换码不存在');
  });
});
