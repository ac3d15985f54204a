import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSchema } from '../src/db/family/recorded-schema.js';
import { up as addTopUpProvider } from '../src/db/migrations/0011_top_up_provider.js';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
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
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();
const STRIPE_KEY = 'sk_test_gateway_secret';
const STRIPE_HOOK = 'whsec_test_webhook_secret';
const CREEM_KEY = 'creem_test_api_key';
const CREEM_HOOK = 'creem_webhook_secret';
const QUOTA_PER_UNIT = 500_000;
const PRODUCTS = [
  { productId: 'prod_small', name: 'Small pack', price: 4.99, currency: 'USD', quota: 2_500_000 },
  { productId: 'prod_big', name: 'Big pack', price: 19.99, currency: 'USD', quota: 12_000_000 },
];

interface Order {
  trade_no: string;
  status: string;
  amount: number;
  money: number;
  payment_method: string;
  payment_provider: string;
}

describe.each(dialects)('card top-up through Stripe Checkout and Creem on %s', (dialect) => {
  let server: TestServer;
  let stripe: FakeStripe;
  let creem: FakeCreem;
  let root: ApiClient;
  let user: ApiClient;

  const quota = async () => (await server.ctx.repos.users.findById(user.userId!))!.quota;
  const order = async (tradeNo: string) => (await server.ctx.repos.topUps.findByTradeNo(tradeNo)) as Order;
  const setOptions = async (options: Record<string, string>) => {
    for (const [key, value] of Object.entries(options)) {
      expect((await root.put('/api/option/', { key, value })).success, key).toBe(true);
    }
  };
  const webhook = async (path: string, body: string, headers: Record<string, string>) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    await response.arrayBuffer();
    return response.status;
  };
  const stripeHook = (body: string, signature = stripeSignature(body, STRIPE_HOOK)) =>
    webhook('/api/stripe/webhook', body, { 'stripe-signature': signature });
  const creemHook = (body: string, signature = creemSignature(body, CREEM_HOOK)) =>
    webhook('/api/creem/webhook', body, { 'creem-signature': signature });
  /** Pays with Stripe through the API and answers the order's trade number (the session's client reference). */
  const stripeOrder = async (amount: number) => {
    const answer = await user.post<{ pay_link: string }>('/api/user/stripe/pay', { amount, payment_method: 'stripe' });
    expect(answer, JSON.stringify(answer)).toMatchObject({ success: true, message: 'success' });
    const session = stripe.sessions.at(-1)!;
    expect(answer.data?.pay_link).toBe(session.url);
    return session.form.client_reference_id!;
  };

  beforeAll(async () => {
    stripe = await startFakeStripe(STRIPE_KEY);
    creem = await startFakeCreem(CREEM_KEY);
    server = await startTestServer(dialect, { STRIPE_API_BASE: stripe.base, CREEM_API_BASE: creem.base });
    root = await setupAndLogin(server.baseUrl);
    user = await signedInUser(server.baseUrl, server.ctx.repos, 'cardpayer');
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
    await creem?.close();
  });

  it('offers neither provider until configured, and refuses webhooks without a secret', async () => {
    expect(await user.post('/api/user/stripe/pay', { amount: 10, payment_method: 'stripe' })).toMatchObject({
      success: false,
      message: '管理员未开启在线充值',
    });
    expect(await user.post('/api/user/creem/pay', { product_id: 'prod_small', payment_method: 'creem' })).toMatchObject(
      { success: false },
    );
    expect((await user.get('/api/user/topup/info')).data).toMatchObject({
      enable_stripe_topup: false,
      enable_creem_topup: false,
      enable_creem_subscription: false,
      creem_products: '[]',
    });
    const body = stripeCheckoutEvent('ref_nothing');
    expect(await stripeHook(body, stripeSignature(body, 'whsec_guess'))).toBe(400);
    expect(await creemHook(creemCompletedEvent('ref_nothing'), 'x')).toBe(401);
  });

  it('configures Stripe: status and top-up info say so, secrets stay with the admin', async () => {
    await setOptions({
      ServerAddress: 'https://gateway.example.com',
      StripeApiSecret: STRIPE_KEY,
      StripeWebhookSecret: STRIPE_HOOK,
      StripePriceId: 'price_credit',
      StripeUnitPrice: '1',
      StripeMinTopUp: '2',
    });
    const status = await fetch(`${server.baseUrl}/api/status`).then((r) => r.text());
    expect(JSON.parse(status).data).toMatchObject({ stripe_unit_price: 1, enable_stripe_topup: true });
    expect(status).not.toContain(STRIPE_KEY);
    expect(status).not.toContain(STRIPE_HOOK);
    const options = JSON.stringify(await root.get('/api/option/'));
    expect(options).not.toContain(STRIPE_KEY);
    expect(options).not.toContain(STRIPE_HOOK);
    expect((await user.get('/api/user/topup/info')).data).toMatchObject({
      enable_stripe_topup: true,
      stripe_min_topup: 2,
    });
  });

  it('quotes and creates the checkout with the right amount, form-encoded with the secret key', async () => {
    expect(await user.post('/api/user/stripe/amount', { amount: 10 })).toMatchObject({ success: true, data: '10.00' });
    expect(await user.post('/api/user/stripe/amount', { amount: 1 }, { 'accept-language': 'en' })).toMatchObject({
      success: false,
      message: 'The top-up amount cannot be less than 2',
    });
    const tradeNo = await stripeOrder(10);
    expect(tradeNo).toMatch(/^ref_[0-9a-f]{40}$/);
    expect(stripe.sessions.at(-1)!.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price]': 'price_credit',
      'line_items[0][quantity]': '10',
      success_url: 'https://gateway.example.com/topup?pay=pending',
      cancel_url: 'https://gateway.example.com/topup',
      allow_promotion_codes: 'false',
    });
    expect(await order(tradeNo)).toMatchObject({
      status: 'pending',
      amount: 10,
      money: 10,
      payment_method: 'stripe',
      payment_provider: 'stripe',
    });
    expect(stripe.refused).toBe(0);
  });

  it('charges the exact discounted money as one item of the same product and currency', async () => {
    await setOptions({ 'payment_setting.amount_discount': '{"20": 0.5}' });
    const tradeNo = await stripeOrder(20);
    expect(stripe.sessions.at(-1)!.form).toMatchObject({
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][product]': 'prod_credit',
      'line_items[0][price_data][unit_amount]': '1000',
      'line_items[0][quantity]': '1',
    });
    expect((await order(tradeNo)).money).toBe(10);
    await setOptions({ 'payment_setting.amount_discount': '{}' });
  });

  it('refuses a webhook with a bad signature or an old timestamp, changing nothing', async () => {
    const tradeNo = await stripeOrder(3);
    const before = await quota();
    const body = stripeCheckoutEvent(tradeNo);
    expect(await stripeHook(body, stripeSignature(body, 'whsec_someone_else'))).toBe(400);
    expect(await stripeHook(body, stripeSignature(body, STRIPE_HOOK, Math.floor(Date.now() / 1000) - 600))).toBe(400);
    expect(await stripeHook(body, '')).toBe(400);
    // A genuine signature over other bytes (the amount edited after signing).
    const signed = stripeSignature(body, STRIPE_HOOK);
    expect(await stripeHook(body.replace('"paid"', '"paid" '), signed)).toBe(400);
    expect(await quota()).toBe(before);
    expect((await order(tradeNo)).status).toBe('pending');
  });

  it('credits a paid checkout exactly once, however often the webhook is replayed or raced', async () => {
    const tradeNo = await stripeOrder(4);
    const before = await quota();
    const body = stripeCheckoutEvent(tradeNo);
    expect(await stripeHook(body)).toBe(200);
    expect(await quota()).toBe(before + 4 * QUOTA_PER_UNIT);
    expect(await stripeHook(body)).toBe(200);
    expect(await quota()).toBe(before + 4 * QUOTA_PER_UNIT);
    expect((await order(tradeNo)).status).toBe('success');

    const raced = await stripeOrder(5);
    const racedBody = stripeCheckoutEvent(raced);
    const statuses = await Promise.all(Array.from({ length: 6 }, () => stripeHook(racedBody)));
    expect(statuses).toEqual(Array(6).fill(200));
    expect(await quota()).toBe(before + 9 * QUOTA_PER_UNIT);
    const history = await user.get<{ items: Order[] }>('/api/user/topup/self');
    expect(history.data?.items.find((item) => item.trade_no === raced)).toMatchObject({
      status: 'success',
      payment_provider: 'stripe',
    });
  });

  it('credits nothing for an unpaid or expired checkout, and an expired order stays expired', async () => {
    const tradeNo = await stripeOrder(6);
    const before = await quota();
    expect(await stripeHook(stripeCheckoutEvent(tradeNo, { payment_status: 'unpaid' }))).toBe(200);
    expect((await order(tradeNo)).status).toBe('pending');
    expect(
      await stripeHook(stripeCheckoutEvent(tradeNo, { type: 'checkout.session.expired', status: 'expired' })),
    ).toBe(200);
    expect((await order(tradeNo)).status).toBe('expired');
    expect(await stripeHook(stripeCheckoutEvent(tradeNo))).toBe(200);
    expect((await order(tradeNo)).status).toBe('expired');
    expect(await quota()).toBe(before);
  });

  it('answers a plain failure when Stripe refuses, and marks that order failed', async () => {
    stripe.failWith = 500;
    const answer = await user.post(
      '/api/user/stripe/pay',
      { amount: 7, payment_method: 'stripe' },
      { 'accept-language': 'en' },
    );
    stripe.failWith = null;
    expect(answer).toMatchObject({
      success: false,
      message: 'The payment could not be started; please try again later',
    });
    expect(JSON.stringify(answer)).not.toContain(STRIPE_KEY);
    const failed = await server.ctx.repos.topUps.listForUser(user.userId!, 0, 1);
    expect(failed.items[0]).toMatchObject({ status: 'failed', payment_provider: 'stripe' });
  });

  it('Creem: checkout for a configured product with the API key; only the signed webhook credits, once', async () => {
    // Key and secret without products: plans (which name their own product) can be sold, top-ups cannot.
    await setOptions({ CreemApiKey: CREEM_KEY, CreemWebhookSecret: CREEM_HOOK });
    expect((await user.get('/api/user/topup/info')).data).toMatchObject({
      enable_creem_topup: false,
      enable_creem_subscription: true,
    });
    await setOptions({
      CreemApiKey: CREEM_KEY,
      CreemWebhookSecret: CREEM_HOOK,
      CreemProducts: JSON.stringify(PRODUCTS),
    });
    expect((await root.put('/api/option/', { key: 'CreemProducts', value: '[{"productId": ""}]' })).success).toBe(
      false,
    );
    const info = (await user.get<{ enable_creem_topup: boolean; creem_products: string }>('/api/user/topup/info'))
      .data!;
    expect(info.enable_creem_topup).toBe(true);
    expect(JSON.parse(info.creem_products)).toEqual(PRODUCTS);
    expect(await user.post('/api/user/creem/pay', { product_id: 'prod_none', payment_method: 'creem' })).toMatchObject({
      success: false,
      message: '产品不存在',
    });

    const answer = await user.post<{ checkout_url: string; order_id: string }>('/api/user/creem/pay', {
      product_id: 'prod_small',
      payment_method: 'creem',
    });
    expect(answer).toMatchObject({ success: true, message: 'success' });
    const checkout = creem.checkouts.at(-1)!;
    expect(answer.data).toEqual({ checkout_url: checkout.url, order_id: checkout.body.request_id });
    expect(checkout.body).toMatchObject({
      product_id: 'prod_small',
      success_url: 'https://gateway.example.com/topup?pay=pending',
    });
    const tradeNo = answer.data!.order_id;
    expect(await order(tradeNo)).toMatchObject({
      status: 'pending',
      amount: 2_500_000,
      money: 4.99,
      payment_provider: 'creem',
    });

    const before = await quota();
    const body = creemCompletedEvent(tradeNo);
    expect(await creemHook(body, creemSignature(body, 'wrong-secret'))).toBe(401);
    expect(await creemHook(body, '')).toBe(401);
    // A Stripe-signed event naming a Creem order completes nothing.
    expect(await stripeHook(stripeCheckoutEvent(tradeNo))).toBe(200);
    expect(await quota()).toBe(before);
    expect((await order(tradeNo)).status).toBe('pending');

    const statuses = await Promise.all(Array.from({ length: 5 }, () => creemHook(body)));
    expect(statuses).toEqual(Array(5).fill(200));
    expect(await creemHook(body)).toBe(200);
    expect(await quota()).toBe(before + 2_500_000);
    expect((await order(tradeNo)).status).toBe('success');
    expect(creem.refused).toBe(0);
  });

  it('migration 0011 leaves a top_ups table that already has payment_provider as it is (a newer family database)', async () => {
    await addTopUpProvider(server.ctx.db.kysely as unknown as Kysely<unknown>, server.ctx.db.dialect);
    // Adopting a family database compares the recorded statements with its tables: none may add the column.
    const recorded = await recordSchema((db) => addTopUpProvider(db, server.ctx.db.dialect));
    expect(recorded.filter((node) => node.kind === 'AlterTableNode')).toEqual([]);
  });
});
