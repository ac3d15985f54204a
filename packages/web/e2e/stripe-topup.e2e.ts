import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../server/test/helpers/databases.js';
import {
  creemCompletedEvent,
  creemSignature,
  type FakeCreem,
  type FakeStripe,
  startFakeCreem,
  startFakeStripe,
  stripeCheckoutEvent,
  stripeSignature,
} from '../../server/test/helpers/fake-payments.js';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

const dialects = await availableDialects();
const STRIPE_KEY = 'sk_test_e2e_secret';
const STRIPE_HOOK = 'whsec_e2e_secret';
const CREEM_KEY = 'creem_e2e_key';
const CREEM_HOOK = 'creem_e2e_hook';
const ALICE = { username: 'alice', password: 'alice-password-1' };
const PACK = { productId: 'prod_pack', name: 'Starter pack', price: 4.99, currency: 'USD', quota: 1_500_000 };

describe.each(dialects)('card top-up through Stripe Checkout and Creem, on %s (built product)', (dialect) => {
  let database: TestDatabase | null = null;
  let journey: Journey;
  let product: Product;
  let browser: Browser;
  let api: AdminApi;
  let stripe: FakeStripe;
  let creem: FakeCreem;
  let aliceId = 0;
  const pictures = dialect === 'sqlite';

  const aliceQuota = async () => (await api<{ quota: number }>('GET', `/api/user/${aliceId}`)).quota;
  const deliver = async (path: string, body: string, headers: Record<string, string>) =>
    (
      await fetch(`${product.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      })
    ).status;

  beforeAll(async () => {
    stripe = await startFakeStripe(STRIPE_KEY);
    creem = await startFakeCreem(CREEM_KEY);
    if (dialect !== 'sqlite') database = await createTestDatabase(dialect);
    journey = await startJourney({
      env: {
        STRIPE_API_BASE: stripe.base,
        CREEM_API_BASE: creem.base,
        ...(database ? { SQL_DSN: database.env.SQL_DSN } : {}),
      },
    });
    ({ product, browser, api } = journey);
    await api('POST', '/api/user/', { ...ALICE, display_name: 'Alice' });
    const found = await api<{ items: Array<{ id: number; username: string }> }>(
      'GET',
      '/api/user/search?keyword=alice',
    );
    aliceId = found.items.find((user) => user.username === 'alice')!.id;
  }, 90_000);
  afterAll(async () => {
    await journey?.close();
    await database?.drop();
    await stripe?.close();
    await creem?.close();
  });

  it('root sets Stripe up in the settings page', async () => {
    await api('PUT', '/api/option/', { key: 'ServerAddress', value: product.baseUrl });
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/setting?tab=system');
    const section = page.getByTestId('section-stripe');
    await section.waitFor();
    await section.getByText(`${product.baseUrl}/api/stripe/webhook`).waitFor();
    await page.locator('[id="StripeApiSecret"]').fill(STRIPE_KEY);
    await page.locator('[id="StripeWebhookSecret"]').fill(STRIPE_HOOK);
    await page.locator('[id="StripePriceId"]').fill('price_credit');
    await page.locator('[id="StripeUnitPrice"]').fill('1');
    await section.getByRole('button', { name: '保存' }).click();
    const deadline = Date.now() + 10_000;
    for (;;) {
      const status = await api<{ enable_stripe_topup: boolean; stripe_unit_price: number }>('GET', '/api/status');
      if (status.enable_stripe_topup && status.stripe_unit_price === 1) break;
      if (Date.now() > deadline) throw new Error('Stripe settings not saved');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Saved secrets are never shown again.
    await page.reload();
    await page.getByTestId('section-stripe').waitFor();
    expect(await page.locator('[id="StripeApiSecret"]').inputValue()).toBe('');
    if (pictures) {
      await page.getByTestId('section-stripe').scrollIntoViewIfNeeded();
      await snap(page, 'stripe-01-settings', { fullPage: false });
    }
    await context.close();
  });

  it('the user pays with Stripe; only the signed webhook credits, once, and the wallet shows it paid', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page, ALICE);
    await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    await page.goto('/topup');
    const amount = page.getByTestId('wallet-amount').locator('input').or(page.locator('input#wallet-amount')).first();
    await amount.fill('5');
    await page.getByTestId('wallet-payable-stripe').getByText('$5.00').waitFor();
    if (pictures) await snap(page, 'stripe-02-wallet-en');
    await page.getByTestId('wallet-pay-stripe').click();
    await page.getByRole('dialog').getByText('$5.00').first().waitFor();
    await page.getByRole('button', { name: 'Go to payment' }).click();

    // The browser is on the (fake) Stripe Checkout page the server's session answered.
    await page.waitForURL(`${stripe.base}/pay/**`);
    expect(await page.getByTestId('fake-checkout-total').textContent()).toBe('$5.00');
    const session = stripe.sessions.at(-1)!;
    expect(session.form).toMatchObject({ 'line_items[0][price]': 'price_credit', 'line_items[0][quantity]': '5' });
    if (pictures) await snap(page, 'stripe-03-checkout');
    await page.getByTestId('fake-checkout-back').click();
    await page.waitForURL('**/topup?pay=pending');
    const history = page.getByTestId('wallet-history');
    await history.getByText('Awaiting payment').waitFor();
    await history.getByText('Card (Stripe)').waitFor();
    expect(await aliceQuota()).toBe(0);

    // A forged delivery changes nothing; the genuine one credits; its replay does not.
    const tradeNo = session.form.client_reference_id!;
    const event = stripeCheckoutEvent(tradeNo, { amount_total: 500 });
    expect(
      await deliver('/api/stripe/webhook', event, { 'stripe-signature': stripeSignature(event, 'whsec_forged') }),
    ).toBe(400);
    expect(await aliceQuota()).toBe(0);
    expect(
      await deliver('/api/stripe/webhook', event, { 'stripe-signature': stripeSignature(event, STRIPE_HOOK) }),
    ).toBe(200);
    expect(
      await deliver('/api/stripe/webhook', event, { 'stripe-signature': stripeSignature(event, STRIPE_HOOK) }),
    ).toBe(200);
    expect(await aliceQuota()).toBe(5 * 500_000);

    await page.reload();
    await page.getByTestId('wallet-balance-value').getByText('$5.00').waitFor();
    await history.getByText('Completed').waitFor();
    await history.getByText('$5.00').first().waitFor();
    if (pictures) await snap(page, 'stripe-04-paid-en');
    await context.close();
  });

  it('the user buys a Creem pack on a phone in dark mode; the signed webhook credits its quota', async () => {
    await api('PUT', '/api/option/', { key: 'CreemApiKey', value: CREEM_KEY });
    await api('PUT', '/api/option/', { key: 'CreemWebhookSecret', value: CREEM_HOOK });
    await api('PUT', '/api/option/', { key: 'CreemProducts', value: JSON.stringify([PACK]) });
    const { context, page } = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(page, ALICE);
    await page.goto('/topup');
    const pack = page.getByTestId('wallet-creem-prod_pack');
    await pack.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    if (pictures) await snap(page, 'stripe-05-creem-dark-375');
    await pack.click();
    await page.getByRole('dialog').getByText('4.99 USD').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '前往支付' }).click();
    await page.waitForURL(`${creem.base}/checkout/**`);
    const checkout = creem.checkouts.at(-1)!;
    expect(checkout.body).toMatchObject({ product_id: 'prod_pack' });
    await page.getByTestId('fake-checkout-back').click();
    await page.waitForURL('**/topup?pay=pending');

    const event = creemCompletedEvent(String(checkout.body.request_id));
    expect(await deliver('/api/creem/webhook', event, { 'creem-signature': creemSignature(event, 'forged') })).toBe(
      401,
    );
    const sent = await Promise.all(
      [1, 2, 3].map(() =>
        deliver('/api/creem/webhook', event, { 'creem-signature': creemSignature(event, CREEM_HOOK) }),
      ),
    );
    expect(sent).toEqual([200, 200, 200]);
    expect(await aliceQuota()).toBe(5 * 500_000 + PACK.quota);
    await page.reload();
    await page.getByTestId('wallet-balance-value').getByText('$8.00').waitFor();
    await page.getByTestId('wallet-history').getByText('Creem').first().waitFor();
    if (pictures) await snap(page, 'stripe-06-creem-paid-dark-375');
    await context.close();
  });
});
