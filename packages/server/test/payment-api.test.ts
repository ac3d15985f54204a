import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { epaySign } from '../src/services/payments/epay.js';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();
const KEY = 'merchant-secret-key';

describe.each(dialects)('online top-up through the epay protocol on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;
  let user: ApiClient;

  const report = async (
    path: 'notify' | 'return',
    params: Record<string, string>,
    method: 'GET' | 'POST' = 'POST',
  ): Promise<{ status: number; text: string; location: string | null }> => {
    const query = new URLSearchParams(params).toString();
    const url = `${server.baseUrl}/api/user/epay/${path}`;
    const response =
      method === 'GET'
        ? await fetch(`${url}?${query}`, { redirect: 'manual' })
        : await fetch(url, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: query,
          });
    return { status: response.status, text: await response.text(), location: response.headers.get('location') };
  };
  const notify = async (params: Record<string, string>, method: 'GET' | 'POST' = 'POST') =>
    (await report('notify', params, method)).text;

  /** What a genuine gateway would send for an order, signed with the merchant key (or another key). */
  const paid = (order: Record<string, string>, overrides: Record<string, string> = {}, key = KEY) => {
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
    return { ...params, sign: epaySign(params, key), sign_type: 'MD5' };
  };

  const createOrder = async (client: ApiClient, body: object) => {
    const response = await fetch(`${server.baseUrl}/api/user/pay`, {
      method: 'POST',
      headers: {
        cookie: client.sessionCookie,
        'new-api-user': String(client.userId),
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { success: boolean; message: string; url: string; data: Record<string, string> };
  };
  const orderCount = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('top_ups')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const quotaOf = async (client: ApiClient) => (await server.ctx.repos.users.findById(client.userId!))!.quota;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
    user = await signedInUser(server.baseUrl, server.ctx.repos, 'payer');
  });
  afterAll(async () => server?.close());

  it('says online top-up is off until the admin configures it, in the user language', async () => {
    expect(await user.post('/api/user/pay', { amount: 10, payment_method: 'zfb' })).toMatchObject({
      success: false,
      message: '管理员未开启在线充值',
    });
    expect(
      await user.post('/api/user/pay', { amount: 10, payment_method: 'zfb' }, { 'accept-language': 'en' }),
    ).toMatchObject({ success: false, message: 'The administrator has not enabled online top-up' });
    expect((await user.get<{ enable_online_topup: boolean }>('/api/user/topup/info')).data).toMatchObject({
      enable_online_topup: false,
      min_topup: 1,
      amount_options: [10, 20, 50, 100, 200, 500],
      discount: {},
    });
    expect(await notify({ out_trade_no: 'x', sign: 'y' })).toBe('fail');
  });

  it('quotes with group ratio and discounts, and creates an order with signed gateway fields', async () => {
    for (const [key, value] of [
      ['ServerAddress', 'https://gateway.example.com'],
      ['PayAddress', 'https://pay.example.com/'],
      ['EpayId', '1001'],
      ['EpayKey', KEY],
      ['MinTopUp', '5'],
      ['TopupGroupRatio', '{"default": 1.5}'],
      ['payment_setting.amount_options', '[100, 10, 50]'],
      ['payment_setting.amount_discount', '{"100": 0.9}'],
    ]) {
      expect((await root.put('/api/option/', { key, value })).success, key).toBe(true);
    }
    expect((await user.get('/api/user/topup/info')).data).toEqual({
      enable_online_topup: true,
      min_topup: 5,
      price: 7.3,
      amount_options: [10, 50, 100],
      discount: { '100': 0.9 },
      enable_stripe_topup: false,
      stripe_min_topup: 1,
      enable_creem_topup: false,
      enable_creem_subscription: false,
      creem_products: '[]',
    });
    // 10 units × 7.3 × group ratio 1.5 = 109.50; 100 units × 7.3 × 1.5 × 0.9 = 985.50
    expect((await user.post('/api/user/amount', { amount: 10 })).data).toBe('109.50');
    expect((await user.post('/api/user/amount', { amount: 100 })).data).toBe('985.50');
    expect(await user.post('/api/user/amount', { amount: 2 })).toMatchObject({
      success: false,
      message: '充值数量不能小于 5',
    });
    expect(await user.post('/api/user/amount', { amount: 2 }, { 'accept-language': 'en' })).toMatchObject({
      success: false,
      message: 'The top-up amount cannot be less than 5',
    });

    const first = await createOrder(user, { amount: 10, payment_method: 'zfb' });
    const raw = await createOrder(user, { amount: 10, payment_method: 'zfb' });
    expect(raw.url).toBe('https://pay.example.com/submit.php');
    expect(raw.data).toMatchObject({
      pid: '1001',
      type: 'alipay',
      money: '109.50',
      name: 'TUC10',
      notify_url: 'https://gateway.example.com/api/user/epay/notify',
      return_url: 'https://gateway.example.com/api/user/epay/return',
      sign_type: 'MD5',
    });
    expect(raw.data.out_trade_no).toMatch(new RegExp(`^USR${user.userId}NO[A-Za-z0-9]{6}\\d+$`));
    expect(raw.data.sign).toBe(epaySign(raw.data, KEY));
    expect(first.data.out_trade_no).not.toBe(raw.data.out_trade_no);
    expect((await createOrder(user, { amount: 100, payment_method: 'wx' })).data).toMatchObject({
      type: 'wxpay',
      money: '985.50',
    });
    expect(await server.ctx.repos.topUps.findByTradeNo(raw.data.out_trade_no!)).toMatchObject({
      status: 'pending',
      amount: 10,
      money: 109.5,
      user_id: user.userId,
      payment_method: 'alipay',
    });
  });

  it('refuses bad order input and changes nothing', async () => {
    const before = await orderCount();
    const cases: Array<[object, string]> = [
      [{ payment_method: 'zfb' }, '充值数量必须是正整数'],
      [{ amount: '10', payment_method: 'zfb' }, '充值数量必须是正整数'],
      [{ amount: 10.5, payment_method: 'zfb' }, '充值数量必须是正整数'],
      [{ amount: -10, payment_method: 'zfb' }, '充值数量必须是正整数'],
      [{ amount: 4, payment_method: 'zfb' }, '充值数量不能小于 5'],
      [{ amount: 10, payment_method: 'stripe' }, '不支持的支付方式'],
      [{ amount: 10 }, '不支持的支付方式'],
    ];
    for (const [body, message] of cases) {
      expect(await user.post('/api/user/pay', body), JSON.stringify(body)).toMatchObject({ success: false, message });
    }
    expect(await orderCount()).toBe(before);
    const anonymous = await fetch(`${server.baseUrl}/api/user/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 10, payment_method: 'zfb' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('refuses forged, foreign, short-paid and unknown notifications, and credits a genuine one exactly once', async () => {
    const order = (await createOrder(user, { amount: 10, payment_method: 'wx' })).data;
    const before = await quotaOf(user);

    const genuine = paid(order);
    const forgeries: Array<[string, Record<string, string>]> = [
      ['random signature', { ...genuine, sign: 'f'.repeat(32) }],
      ['no signature', Object.fromEntries(Object.entries(genuine).filter(([key]) => key !== 'sign'))],
      ['signed with another key', paid(order, {}, 'guessed-key')],
      ['money raised after signing', { ...genuine, money: '1.00' }],
      ['order swapped after signing', { ...genuine, out_trade_no: `USR${user.userId}NOzzzzzz1` }],
      ['another merchant', paid(order, { pid: '9999' })],
      ['short-paid', paid(order, { money: '1.00' })],
      ['unknown order', paid(order, { out_trade_no: 'USR1NOxxxxxx1' })],
      ['a redemption record', paid(order, { out_trade_no: 'REDEEM1' })],
      ['not paid yet', paid(order, { trade_status: 'WAIT_BUYER_PAY' })],
    ];
    for (const [what, params] of forgeries) {
      expect(await notify(params), what).toBe('fail');
      expect((await report('return', params, 'GET')).location, what).toMatch(/^\/topup\?pay=(fail|pending)$/);
    }
    expect(await quotaOf(user)).toBe(before);
    expect((await server.ctx.repos.topUps.findByTradeNo(order.out_trade_no!))!.status).toBe('pending');

    await server.ctx.ledger.prepare(user.userId!, null);
    const spendable = server.ctx.ledger.available('user', user.userId!);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => notify(genuine, index % 2 ? 'GET' : 'POST')),
    );
    expect(answers.every((answer) => answer === 'success')).toBe(true);
    // 10 units × 500000 = 5 000 000, once
    expect((await quotaOf(user)) - before).toBe(5_000_000);
    expect(await notify(genuine)).toBe('success');
    const back = await report('return', genuine, 'GET');
    expect(back).toMatchObject({ status: 302, location: '/topup?pay=success' });
    expect((await quotaOf(user)) - before).toBe(5_000_000);
    expect(await server.ctx.repos.topUps.findByTradeNo(order.out_trade_no!)).toMatchObject({
      status: 'success',
      amount: 10,
    });
    const logs = await server.ctx.repos.logs.list({ type: 1, userId: user.userId! }, 0, 10);
    expect(logs.total).toBe(1);
    expect(logs.items[0]).toMatchObject({ username: 'payer', quota: 5_000_000 });
    expect(logs.items[0]!.content).toContain('$10.00');
    expect(JSON.parse(logs.items[0]!.other ?? '')).toMatchObject({
      content_key: 'topup_online',
      content_params: { quota: 5_000_000, money: order.money },
    });
    // Credited once in the relay's ledger too: the new quota is spendable without waiting for a reload.
    expect(server.ctx.ledger.available('user', user.userId!) - spendable).toBe(5_000_000);
  });

  it('credits through the return when it arrives before the notification, and the notification then credits nothing', async () => {
    const order = (await createOrder(user, { amount: 20, payment_method: 'zfb' })).data;
    const before = await quotaOf(user);
    const genuine = paid(order);
    const [first, second] = await Promise.all([report('return', genuine, 'GET'), report('return', genuine, 'POST')]);
    expect([first.location, second.location]).toEqual(['/topup?pay=success', '/topup?pay=success']);
    expect(await notify(genuine)).toBe('success');
    expect((await quotaOf(user)) - before).toBe(20 * 500_000);
  });

  it('stops accepting notifications once the merchant key is removed', async () => {
    const order = (await createOrder(user, { amount: 10, payment_method: 'zfb' })).data;
    expect((await root.put('/api/option/', { key: 'EpayKey', value: '' })).success).toBe(true);
    const before = await quotaOf(user);
    expect(await notify(paid(order))).toBe('fail');
    expect(await quotaOf(user)).toBe(before);
    expect((await user.get<{ enable_online_topup: boolean }>('/api/user/topup/info')).data.enable_online_topup).toBe(
      false,
    );
  });

  it('lists a user their own orders, newest first, and nobody else’s', async () => {
    const page = await user.get<{ items: Array<Record<string, unknown>>; total: number; page: number }>(
      '/api/user/topup/self?p=1&page_size=3',
    );
    expect(page.success).toBe(true);
    const all = await orderCount();
    expect(page.data.total).toBeGreaterThanOrEqual(5);
    expect(page.data.total).toBeLessThanOrEqual(all);
    expect(page.data.items).toHaveLength(3);
    expect(page.data.items.every((item) => item.user_id === user.userId)).toBe(true);
    const ids = page.data.items.map((item) => Number(item.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(new Set(page.data.items.map((item) => item.status))).toContain('pending');
    const stranger = await signedInUser(server.baseUrl, server.ctx.repos, 'stranger');
    expect((await stranger.get<{ items: unknown[]; total: number }>('/api/user/topup/self')).data).toMatchObject({
      items: [],
      total: 0,
    });
    expect((await fetch(`${server.baseUrl}/api/user/topup/self`)).status).toBe(401);
  });
});
