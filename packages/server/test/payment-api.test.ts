import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epaySign } from '../src/services/epay.js';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();
const KEY = 'merchant-secret-key';

describe.each(dialects)('online top-up through the epay protocol on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let user: ApiClient;

  const notify = async (params: Record<string, string>, method: 'GET' | 'POST' = 'POST') => {
    const query = new URLSearchParams(params).toString();
    const response =
      method === 'GET'
        ? await fetch(`${server.baseUrl}/api/user/epay/notify?${query}`)
        : await fetch(`${server.baseUrl}/api/user/epay/notify`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: query,
          });
    return response.text();
  };

  /** What a genuine gateway would send for an order. */
  const paid = (order: Record<string, string>, overrides: Record<string, string> = {}) => {
    const params: Record<string, string> = {
      pid: order.pid!,
      trade_no: `GW${Date.now()}`,
      out_trade_no: order.out_trade_no!,
      type: order.type!,
      name: order.name!,
      money: order.money!,
      trade_status: 'TRADE_SUCCESS',
      ...overrides,
    };
    return { ...params, sign: epaySign(params, KEY), sign_type: 'MD5' };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    user = await signedInUser(server.baseUrl, server.ctx.repos, 'payer');
  });
  afterAll(async () => server?.close());

  it('says online top-up is off until the admin configures it', async () => {
    expect(await user.post('/api/user/pay', { amount: 10, payment_method: 'zfb' })).toMatchObject({
      success: false,
      message: '管理员未开启在线充值',
    });
  });

  it('quotes and creates an order with signed gateway fields', async () => {
    for (const [key, value] of [
      ['ServerAddress', 'https://gateway.example.com'],
      ['PayAddress', 'https://pay.example.com/'],
      ['EpayId', '1001'],
      ['EpayKey', KEY],
      ['MinTopUp', '5'],
      ['TopupGroupRatio', '{"default": 1.5}'],
    ]) {
      expect((await root.put('/api/option/', { key, value })).success, key).toBe(true);
    }
    // 10 units × 7.3 × group ratio 1.5 = 109.50
    expect((await user.post('/api/user/amount', { amount: 10 })).data).toBe('109.50');
    expect(await user.post('/api/user/amount', { amount: 2 })).toMatchObject({
      success: false,
      message: '充值数量不能小于 5',
    });
    const order = (await user.call('POST', '/api/user/pay', { amount: 10, payment_method: 'zfb' })) as unknown as {
      data: Record<string, string>;
    };
    const raw = await fetch(`${server.baseUrl}/api/user/pay`, {
      method: 'POST',
      headers: { cookie: user.sessionCookie, 'new-api-user': String(user.userId), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 10, payment_method: 'zfb' }),
    }).then((r) => r.json() as Promise<{ url: string; data: Record<string, string> }>);
    expect(raw.url).toBe('https://pay.example.com/submit.php');
    expect(raw.data).toMatchObject({
      pid: '1001',
      type: 'zfb',
      money: '109.50',
      notify_url: 'https://gateway.example.com/api/user/epay/notify',
      sign_type: 'MD5',
    });
    expect(raw.data.out_trade_no).toMatch(new RegExp(`^USR${user.userId}NO[A-Za-z0-9]{6}\\d+$`));
    expect(raw.data.sign).toBe(epaySign(raw.data, KEY));
    expect(order.data.out_trade_no).not.toBe(raw.data.out_trade_no);
  });

  it('refuses forged, foreign, short-paid and unknown notifications, and credits a genuine one exactly once', async () => {
    const order = await fetch(`${server.baseUrl}/api/user/pay`, {
      method: 'POST',
      headers: { cookie: user.sessionCookie, 'new-api-user': String(user.userId), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 10, payment_method: 'wx' }),
    }).then(async (r) => ((await r.json()) as { data: Record<string, string> }).data);
    const quota = async () => (await server.ctx.repos.users.findById(user.userId!))!.quota;
    const before = await quota();

    expect(await notify({ ...paid(order), sign: 'f'.repeat(32) })).toBe('fail');
    expect(await notify(paid(order, { pid: '9999' }))).toBe('fail');
    expect(await notify(paid(order, { money: '1.00' }))).toBe('fail');
    expect(await notify(paid(order, { out_trade_no: 'USR1NOxxxxxx1' }))).toBe('fail');
    expect(await notify(paid(order, { trade_status: 'WAIT_BUYER_PAY' }))).toBe('fail');
    expect(await quota()).toBe(before);

    const genuine = paid(order);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => notify(genuine, index % 2 ? 'GET' : 'POST')),
    );
    expect(answers.every((answer) => answer === 'success')).toBe(true);
    // 10 units × 500000 = 5 000 000, once
    expect((await quota()) - before).toBe(5_000_000);
    expect(await notify(genuine)).toBe('success');
    expect((await quota()) - before).toBe(5_000_000);
    expect(await server.ctx.repos.topUps.findByTradeNo(order.out_trade_no!)).toMatchObject({
      status: 'success',
      amount: 10,
    });
    const logs = await server.ctx.repos.logs.list({ type: 1, userId: user.userId! }, 0, 10);
    expect(logs.total).toBe(1);
    expect(logs.items[0]!.content).toContain('$10.00');
  });
});
