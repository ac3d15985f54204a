import {
  LogType,
  type SubscriptionPlanItemView,
  type SubscriptionPlanView,
  type SubscriptionSelfView,
} from '@gateway/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nowSeconds } from '../src/db/sql-helpers.js';
import { epaySign } from '../src/services/payments/epay.js';
import { activeForLedger, maintainSubscriptions } from '../src/services/subscriptions/lifecycle.js';
import { type ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import {
  creemCompletedEvent,
  creemSignature,
  type FakeCreem,
  type FakeStripe,
  startFakeCreem,
  startFakeStripe,
  stripeCheckoutEvent,
  stripeSignature,
} from './helpers/fake-payments.js';
import { addChannel, addToken, flushBilling } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

const dialects = await availableDialects();
const STRIPE_KEY = 'sk_test_gateway_secret';
const STRIPE_HOOK = 'whsec_test_webhook_secret';
// 0.002 per call × 500 000 quota per unit = 1 000 quota per request, reserved and settled alike.
const PER_CALL = 1000;
const UNIT = 500_000;
const DAY = 86_400;
const EPAY_KEY = 'epay-merchant-key';
const CREEM_KEY = 'creem_test_api_key';
const CREEM_HOOK = 'creem_webhook_secret';

const planBody = (overrides: Partial<SubscriptionPlanView> = {}) => ({
  plan: {
    title: 'Pro',
    price_amount: 2,
    duration_unit: 'month',
    duration_value: 1,
    total_amount: 3 * PER_CALL,
    quota_reset_period: 'daily',
    max_purchase_per_user: 0,
    ...overrides,
  },
});

describe.each(dialects)('subscription plans on %s', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let stripe: FakeStripe;
  let creem: FakeCreem;
  let root: ApiClient;
  let serial = 0;

  const db = () => server.ctx.db.kysely;
  const createPlan = async (overrides: Partial<SubscriptionPlanView> = {}) => {
    const created = await root.post<SubscriptionPlanView>('/api/subscription/admin/plans', planBody(overrides));
    expect(created, JSON.stringify(created)).toMatchObject({ success: true });
    return created.data;
  };
  /** A new user with `quota` in the wallet and an unlimited key. */
  const newUser = async (quota: number) => {
    const client = await signedInUser(server.baseUrl, server.ctx.repos, `sub${dialect.slice(0, 2)}${++serial}`);
    await server.ctx.repos.users.update(client.userId!, { quota });
    server.ctx.ledger.markStale('user', client.userId!);
    const key = await addToken(client, { unlimited_quota: true });
    return { client, key, id: client.userId! };
  };
  const call = (key: string) =>
    fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'per-call-model', messages: [{ role: 'user', content: 'hi' }] }),
    }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });
  const wallet = async (id: number) => {
    await flushBilling(server);
    return Number((await server.ctx.repos.users.findById(id))!.quota);
  };
  const subsOf = async (id: number) => {
    await flushBilling(server);
    return db().selectFrom('user_subscriptions').selectAll().where('user_id', '=', id).orderBy('id').execute();
  };
  const setPreference = async (client: ApiClient, billing_preference: string) =>
    expect(
      (await client.put('/api/subscription/self/preference', { billing_preference })).success,
      billing_preference,
    ).toBe(true);

  beforeAll(async () => {
    mock = await startMockUpstream();
    stripe = await startFakeStripe(STRIPE_KEY);
    creem = await startFakeCreem(CREEM_KEY);
    server = await startTestServer(dialect, { STRIPE_API_BASE: stripe.base, CREEM_API_BASE: creem.base });
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: 'per-call-model' });
    for (const [key, value] of Object.entries({
      ModelPrice: '{"per-call-model": 0.002}',
      GroupRatio: '{"default": 1, "vip": 1}',
      ServerAddress: 'https://gateway.example.com',
      StripeApiSecret: STRIPE_KEY,
      StripeWebhookSecret: STRIPE_HOOK,
      StripePriceId: 'price_credit',
      PayAddress: 'https://pay.example.com',
      EpayId: '1001',
      EpayKey: EPAY_KEY,
      CreemApiKey: CREEM_KEY,
      CreemWebhookSecret: CREEM_HOOK,
    })) {
      expect((await root.put('/api/option/', { key, value })).success, key).toBe(true);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await mock?.close();
    await stripe?.close();
    await creem?.close();
  });
  beforeEach(() => mock.reset());

  it('lets only admins define plans, checked on the server, and shows users the enabled ones', async () => {
    const { client } = await newUser(0);
    for (const [method, path, body] of [
      ['GET', '/api/subscription/admin/plans', undefined],
      ['POST', '/api/subscription/admin/plans', planBody()],
      ['PUT', '/api/subscription/admin/plans/1', planBody()],
      ['PATCH', '/api/subscription/admin/plans/1', { enabled: false }],
      ['DELETE', '/api/subscription/admin/plans/1', undefined],
      ['POST', '/api/subscription/admin/bind', { user_id: client.userId, plan_id: 1 }],
      ['GET', `/api/subscription/admin/users/${client.userId}/subscriptions`, undefined],
      ['POST', `/api/subscription/admin/users/${client.userId}/subscriptions`, { plan_id: 1 }],
      ['POST', '/api/subscription/admin/user_subscriptions/1/invalidate', {}],
      ['DELETE', '/api/subscription/admin/user_subscriptions/1', undefined],
    ] as const) {
      expect(refusal(await client.call(method, path, body)), `${method} ${path}`).toEqual(ROLE_REFUSED);
    }
    expect(await db().selectFrom('subscription_plans').selectAll().execute()).toEqual([]);

    const plan = await createPlan({ title: 'Basic', sort_order: 1 });
    expect(plan).toMatchObject({
      title: 'Basic',
      price_amount: 2,
      currency: 'USD',
      enabled: true,
      allow_balance_pay: true,
      total_amount: 3 * PER_CALL,
      quota_reset_period: 'daily',
    });
    // A custom period needs its seconds; an upgrade group must exist.
    expect(
      await root.post('/api/subscription/admin/plans', planBody({ quota_reset_period: 'custom' }), {
        'accept-language': 'en',
      }),
    ).toMatchObject({ success: false, message: 'Invalid plan: quota_reset_custom_seconds' });
    expect(await root.post('/api/subscription/admin/plans', planBody({ upgrade_group: 'nope' }))).toMatchObject({
      success: false,
    });

    const edited = await root.put(
      `/api/subscription/admin/plans/${plan.id}`,
      planBody({ title: 'Basic+', sort_order: 1 }),
    );
    expect(edited.success).toBe(true);
    const visible = await client.get<SubscriptionPlanItemView[]>('/api/subscription/plans');
    expect(visible.data.map((item) => item.plan.title)).toContain('Basic+');
    expect((await root.call('PATCH', `/api/subscription/admin/plans/${plan.id}`, { enabled: false })).success).toBe(
      true,
    );
    const hidden = await client.get<SubscriptionPlanItemView[]>('/api/subscription/plans');
    expect(hidden.data.map((item) => item.plan.id)).not.toContain(plan.id);
    const all = await root.get<SubscriptionPlanItemView[]>('/api/subscription/admin/plans');
    expect(all.data.find((item) => item.plan.id === plan.id)?.plan.enabled).toBe(false);
    expect(await client.post('/api/subscription/balance/pay', { plan_id: plan.id })).toMatchObject({
      success: false,
      message: '套餐未启用',
    });
    expect((await root.delete(`/api/subscription/admin/plans/${plan.id}`)).success).toBe(true);
  });

  it('buys a plan with the wallet: the price leaves the wallet once, never below zero', async () => {
    const plan = await createPlan();
    const poor = await newUser(UNIT);
    expect(await poor.client.post('/api/subscription/balance/pay', { plan_id: plan.id })).toMatchObject({
      success: false,
      message: '余额不足',
    });
    expect(await wallet(poor.id)).toBe(UNIT);
    expect(await subsOf(poor.id)).toEqual([]);

    const buyer = await newUser(5 * UNIT);
    const before = nowSeconds();
    expect(await buyer.client.post('/api/subscription/balance/pay', { plan_id: plan.id })).toMatchObject({
      success: true,
    });
    expect(await wallet(buyer.id)).toBe(3 * UNIT);
    const self = await buyer.client.get<SubscriptionSelfView>('/api/subscription/self');
    expect(self.data.billing_preference).toBe('subscription_first');
    expect(self.data.subscriptions).toHaveLength(1);
    const sub = self.data.subscriptions[0]!.subscription;
    expect(sub).toMatchObject({ plan_id: plan.id, amount_total: 3 * PER_CALL, amount_used: 0, status: 'active' });
    expect(sub.start_time).toBeGreaterThanOrEqual(before);
    // The first window runs a day from the purchase, not to midnight.
    expect(sub.next_reset_time).toBe(sub.start_time + DAY);
    expect(self.data.subscriptions[0]!.plan?.title).toBe('Pro');
    const orders = await db().selectFrom('subscription_orders').selectAll().where('user_id', '=', buyer.id).execute();
    expect(orders).toMatchObject([{ plan_id: plan.id, payment_method: 'balance', status: 'success' }]);
  });

  it('spends the period quota before the wallet, or after it, as the user prefers', async () => {
    const plan = await createPlan();
    const user = await newUser(5 * UNIT);
    await user.client.post('/api/subscription/balance/pay', { plan_id: plan.id });
    const afterPurchase = await wallet(user.id);

    // subscription_first (default): three calls from the plan, the fourth from the wallet.
    for (let i = 0; i < 3; i++) expect(await call(user.key)).toBe(200);
    expect(await wallet(user.id)).toBe(afterPurchase);
    expect((await subsOf(user.id))[0]).toMatchObject({ amount_used: 3 * PER_CALL });
    expect(await call(user.key)).toBe(200);
    expect(await wallet(user.id)).toBe(afterPurchase - PER_CALL);
    const logs = (await server.ctx.repos.logs.list({ userId: user.id, type: LogType.Consume }, 0, 10)).items;
    const sources = logs.map((log) => JSON.parse(log.other ?? '{}') as Record<string, unknown>);
    expect(sources.filter((other) => other.billing_source === 'subscription')).toHaveLength(3);
    expect(sources.find((other) => other.billing_source === 'subscription')?.subscription_id).toBe(
      (await subsOf(user.id))[0]!.id,
    );
    expect(sources.filter((other) => other.billing_source === 'wallet')).toHaveLength(1);
    const self = await user.client.get<SubscriptionSelfView>('/api/subscription/self');
    expect(self.data.subscriptions[0]!.subscription.amount_used).toBe(3 * PER_CALL);

    // subscription_only with the period used up: refused, nothing taken.
    await setPreference(user.client, 'subscription_only');
    expect(await call(user.key)).toBe(403);
    expect(await wallet(user.id)).toBe(afterPurchase - PER_CALL);

    // A new period (an admin's reset), then wallet_first spends the wallet and leaves the plan alone.
    expect((await root.post(`/api/subscription/admin/users/${user.id}/subscriptions/reset`)).success).toBe(true);
    await setPreference(user.client, 'wallet_first');
    expect(await call(user.key)).toBe(200);
    expect(await wallet(user.id)).toBe(afterPurchase - 2 * PER_CALL);
    expect((await subsOf(user.id))[0]).toMatchObject({ amount_used: 0 });
    // wallet_only never touches the plan, even with the wallet empty.
    await setPreference(user.client, 'wallet_only');
    await server.ctx.repos.users.update(user.id, { quota: 0 });
    server.ctx.ledger.markStale('user', user.id);
    expect(await call(user.key)).toBe(403);
    await setPreference(user.client, 'subscription_first');
    expect(await call(user.key)).toBe(200);
    expect((await subsOf(user.id))[0]).toMatchObject({ amount_used: PER_CALL });
    expect(await user.client.put('/api/subscription/self/preference', { billing_preference: 'both' })).toMatchObject({
      success: false,
    });
  });

  it('never lets concurrent requests take more than a period holds', async () => {
    const plan = await createPlan({ total_amount: 5 * PER_CALL });
    const user = await newUser(5 * UNIT);
    await user.client.post('/api/subscription/balance/pay', { plan_id: plan.id });
    await setPreference(user.client, 'subscription_only');
    const statuses = await Promise.all(Array.from({ length: 12 }, () => call(user.key)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 403)).toHaveLength(7);
    expect((await subsOf(user.id))[0]).toMatchObject({ amount_used: 5 * PER_CALL });
  });

  it('starts a new period exactly once, on windows counted from the purchase time', async () => {
    const plan = await createPlan();
    const user = await newUser(5 * UNIT);
    await user.client.post('/api/subscription/balance/pay', { plan_id: plan.id });
    for (let i = 0; i < 2; i++) expect(await call(user.key)).toBe(200);
    const [sub] = await subsOf(user.id);
    // Bought 2.5 days ago at an odd time of day, the first boundary long past.
    const start = nowSeconds() - Math.floor(2.5 * DAY) - 1234;
    await db()
      .updateTable('user_subscriptions')
      .set({ start_time: start, next_reset_time: start + DAY })
      .where('id', '=', sub!.id)
      .execute();
    // Jobs on two nodes and a request's load, all at once: one resets.
    const results = await Promise.all([
      maintainSubscriptions(server.ctx),
      maintainSubscriptions(server.ctx),
      activeForLedger(server.ctx, user.id),
    ]);
    expect(results[0].reset + results[1].reset).toBeLessThanOrEqual(1);
    const [after] = await subsOf(user.id);
    expect(after).toMatchObject({ amount_used: 0, next_reset_time: start + 3 * DAY });
    expect(Number(after!.last_reset_time)).toBeGreaterThan(start + 2 * DAY);
    // The ledger reads the new period: three more calls fit, then the wallet pays.
    const walletBefore = await wallet(user.id);
    for (let i = 0; i < 3; i++) expect(await call(user.key)).toBe(200);
    expect(await wallet(user.id)).toBe(walletBefore);
    expect(await call(user.key)).toBe(200);
    expect(await wallet(user.id)).toBe(walletBefore - PER_CALL);
    // Nothing more is due: a second round resets nothing.
    expect((await maintainSubscriptions(server.ctx)).reset).toBe(0);
    expect((await subsOf(user.id))[0]).toMatchObject({ amount_used: 3 * PER_CALL });

    // The next boundary passes and another node starts the period (this node is not told): the first request here
    // sees the boundary it knows has passed, reads the moved boundary and the new period's balance.
    const soon = nowSeconds() + 2;
    await db()
      .updateTable('user_subscriptions')
      .set({ start_time: soon - 3 * DAY, next_reset_time: soon })
      .where('id', '=', sub!.id)
      .execute();
    server.ctx.ledger.subscriptionsChanged(user.id);
    expect(await call(user.key)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await flushBilling(server);
    expect(await server.ctx.repos.subscriptions.reset(sub!.id, soon, soon + DAY, nowSeconds())).toBe(true);
    const walletThen = await wallet(user.id);
    for (let i = 0; i < 3; i++) expect(await call(user.key)).toBe(200);
    expect(await wallet(user.id)).toBe(walletThen);
    expect((await subsOf(user.id))[0]).toMatchObject({ amount_used: 3 * PER_CALL, next_reset_time: soon + DAY });
  });

  it('renews the same plan by moving its end, without granting its period again', async () => {
    const plan = await createPlan({ duration_unit: 'day', duration_value: 10 });
    const user = await newUser(10 * UNIT);
    await user.client.post('/api/subscription/balance/pay', { plan_id: plan.id });
    expect(await call(user.key)).toBe(200);
    const [first] = await subsOf(user.id);
    expect(await user.client.post('/api/subscription/balance/pay', { plan_id: plan.id })).toMatchObject({
      success: true,
    });
    const subs = await subsOf(user.id);
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({
      id: first!.id,
      amount_used: PER_CALL,
      next_reset_time: first!.next_reset_time,
      end_time: Number(first!.end_time) + 10 * DAY,
    });
    expect(await wallet(user.id)).toBe(6 * UNIT);
  });

  it('sells a plan limited to one per user once, however many purchases race', async () => {
    const plan = await createPlan({ max_purchase_per_user: 1 });
    const user = await newUser(20 * UNIT);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => user.client.post('/api/subscription/balance/pay', { plan_id: plan.id })),
    );
    expect(answers.filter((answer) => answer.success)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.success).map((answer) => answer.message)).toEqual(
      Array(3).fill('已达到该套餐的购买上限（1 次）'),
    );
    expect(await wallet(user.id)).toBe(18 * UNIT);
    expect(await subsOf(user.id)).toHaveLength(1);
  });

  it('grants a Stripe-paid plan once, however often its signed webhook is replayed', async () => {
    const plan = await createPlan({ stripe_price_id: 'price_plan_pro', upgrade_group: '' });
    const user = await newUser(0);
    const answer = await user.client.post<{ pay_link: string }>('/api/subscription/stripe/pay', { plan_id: plan.id });
    expect(answer, JSON.stringify(answer)).toMatchObject({ success: true });
    const session = stripe.sessions.at(-1)!;
    expect(answer.data.pay_link).toBe(session.url);
    expect(session.form).toMatchObject({ 'line_items[0][price]': 'price_plan_pro', 'line_items[0][quantity]': '1' });
    const tradeNo = session.form.client_reference_id!;
    expect(tradeNo).toMatch(/^sub_ref_[0-9a-f]{40}$/);
    expect(await subsOf(user.id)).toEqual([]);

    const body = stripeCheckoutEvent(tradeNo);
    const hook = (signature = stripeSignature(body, STRIPE_HOOK)) =>
      fetch(`${server.baseUrl}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body,
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    expect(await hook(stripeSignature(body, 'whsec_forged'))).toBe(400);
    expect(await subsOf(user.id)).toEqual([]);
    expect(await Promise.all(Array.from({ length: 5 }, () => hook()))).toEqual(Array(5).fill(200));
    expect(await hook()).toBe(200);
    expect(await subsOf(user.id)).toHaveLength(1);
    const order = await server.ctx.repos.subscriptions.findOrder(tradeNo);
    expect(order).toMatchObject({ status: 'success', payment_method: 'stripe' });
    // The plan is spent by the next call at once.
    expect(await call(user.key)).toBe(200);
    expect((await subsOf(user.id))[0]).toMatchObject({ amount_used: PER_CALL });
  });

  it('grants a Creem-paid plan once on its signed webhook, with the plan’s own product', async () => {
    const plan = await createPlan({ creem_product_id: 'prod_plan_pro' });
    const user = await newUser(0);
    const answer = await user.client.post<{ checkout_url: string; order_id: string }>('/api/subscription/creem/pay', {
      plan_id: plan.id,
    });
    expect(answer, JSON.stringify(answer)).toMatchObject({ success: true });
    const checkout = creem.checkouts.at(-1)!;
    expect(answer.data.checkout_url).toBe(checkout.url);
    expect(checkout.body).toMatchObject({ product_id: 'prod_plan_pro', request_id: answer.data.order_id });
    const body = creemCompletedEvent(answer.data.order_id);
    const hook = (signature = creemSignature(body, CREEM_HOOK)) =>
      fetch(`${server.baseUrl}/api/creem/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'creem-signature': signature },
        body,
      }).then(async (response) => {
        await response.arrayBuffer();
        return response.status;
      });
    expect(await hook('0'.repeat(64))).toBe(401);
    expect(await subsOf(user.id)).toEqual([]);
    expect(await Promise.all([hook(), hook(), hook()])).toEqual([200, 200, 200]);
    expect(await subsOf(user.id)).toHaveLength(1);
  });

  it('grants an epay-paid plan once on its signed notification; a forged or short one grants nothing', async () => {
    const plan = await createPlan({ price_amount: 3.5 });
    const user = await newUser(0);
    const response = await fetch(`${server.baseUrl}/api/subscription/epay/pay`, {
      method: 'POST',
      headers: {
        cookie: user.client.sessionCookie,
        'new-api-user': String(user.id),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ plan_id: plan.id, payment_method: 'zfb' }),
    });
    const answer = (await response.json()) as { success: boolean; url: string; data: Record<string, string> };
    expect(answer, JSON.stringify(answer)).toMatchObject({ success: true, message: 'success' });
    expect(answer.url).toBe('https://pay.example.com/submit.php');
    const form = answer.data;
    expect(form).toMatchObject({
      pid: '1001',
      type: 'alipay',
      money: '3.50',
      notify_url: 'https://gateway.example.com/api/subscription/epay/notify',
    });
    expect(form.sign).toBe(epaySign(form, EPAY_KEY));
    const report = (overrides: Record<string, string> = {}, key = EPAY_KEY) => {
      const params: Record<string, string> = {
        pid: '1001',
        trade_no: `GW${Date.now()}`,
        out_trade_no: form.out_trade_no!,
        type: 'alipay',
        name: form.name!,
        money: '3.50',
        trade_status: 'TRADE_SUCCESS',
        ...overrides,
      };
      const body = new URLSearchParams({ ...params, sign: epaySign(params, key), sign_type: 'MD5' }).toString();
      return fetch(`${server.baseUrl}/api/subscription/epay/notify`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      }).then((response) => response.text());
    };
    expect(await report({}, 'another-key')).toBe('fail');
    expect(await report({ money: '0.01' })).toBe('fail');
    expect(await report({ trade_status: 'WAIT_BUYER_PAY' })).toBe('fail');
    expect(await subsOf(user.id)).toEqual([]);
    expect(await Promise.all(Array.from({ length: 4 }, () => report()))).toEqual(Array(4).fill('success'));
    expect(await subsOf(user.id)).toHaveLength(1);
    expect(await server.ctx.repos.subscriptions.findOrder(form.out_trade_no!)).toMatchObject({
      status: 'success',
      payment_method: 'alipay',
    });
  });

  it('gives a failed request’s reservation back to the plan it was taken from', async () => {
    const plan = await createPlan();
    const user = await newUser(5 * UNIT);
    await user.client.post('/api/subscription/balance/pay', { plan_id: plan.id });
    const walletBefore = await wallet(user.id);
    mock.enqueue('openai.chat', { kind: 'status', status: 400, message: 'bad request' });
    expect(await call(user.key)).toBe(400);
    expect(await call(user.key)).toBe(200);
    expect((await subsOf(user.id))[0]).toMatchObject({ amount_used: PER_CALL });
    expect(await wallet(user.id)).toBe(walletBefore);
    expect(server.ctx.ledger.live('subscription', (await subsOf(user.id))[0]!.id)).toBe(2 * PER_CALL);
  });

  it('moves the user to the plan’s group while it lasts and back when it expires or is cancelled', async () => {
    const plan = await createPlan({ upgrade_group: 'vip' });
    const user = await newUser(10 * UNIT);
    await user.client.post('/api/subscription/balance/pay', { plan_id: plan.id });
    expect((await server.ctx.repos.users.findById(user.id))!.group).toBe('vip');
    expect((await user.client.get<{ group: string }>('/api/user/self')).data.group).toBe('vip');
    const [sub] = await subsOf(user.id);
    expect(sub).toMatchObject({ upgrade_group: 'vip', prev_user_group: 'default' });
    await db()
      .updateTable('user_subscriptions')
      .set({ end_time: nowSeconds() - 1 })
      .where('id', '=', sub!.id)
      .execute();
    const round = await maintainSubscriptions(server.ctx);
    expect(round.expired).toBeGreaterThanOrEqual(1);
    expect((await subsOf(user.id))[0]).toMatchObject({ status: 'expired' });
    expect((await server.ctx.repos.users.findById(user.id))!.group).toBe('default');
    expect((await user.client.get<{ group: string }>('/api/user/self')).data.group).toBe('default');
    expect((await maintainSubscriptions(server.ctx)).expired).toBe(0);

    // An admin's grant and invalidation do the same; the invalidated plan pays nothing more.
    expect(
      (await root.post(`/api/subscription/admin/users/${user.id}/subscriptions`, { plan_id: plan.id })).success,
    ).toBe(true);
    expect((await server.ctx.repos.users.findById(user.id))!.group).toBe('vip');
    const listed = await root.get<Array<{ subscription: { id: number; status: string } }>>(
      `/api/subscription/admin/users/${user.id}/subscriptions`,
    );
    const active = listed.data.find((entry) => entry.subscription.status === 'active')!;
    expect(
      (await root.post(`/api/subscription/admin/user_subscriptions/${active.subscription.id}/invalidate`, {})).success,
    ).toBe(true);
    expect((await server.ctx.repos.users.findById(user.id))!.group).toBe('default');
    await setPreference(user.client, 'subscription_only');
    expect(await call(user.key)).toBe(403);
    expect((await root.delete(`/api/subscription/admin/user_subscriptions/${active.subscription.id}`)).success).toBe(
      true,
    );
    expect(await subsOf(user.id)).toHaveLength(1);
    const audited = await db()
      .selectFrom('audit_logs')
      .select(['action', 'actor_username'])
      .where('target_type', '=', 'user')
      .where('target_id', '=', String(user.id))
      .where('action', 'like', 'subscription.%')
      .orderBy('id')
      .execute();
    expect(audited).toEqual([
      { action: 'subscription.grant', actor_username: 'root' },
      { action: 'subscription.invalidate', actor_username: 'root' },
      { action: 'subscription.delete', actor_username: 'root' },
    ]);
  });
});
