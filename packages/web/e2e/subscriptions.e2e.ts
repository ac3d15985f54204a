import type { SubscriptionPlanItemView, SubscriptionSelfView, SubscriptionSummaryView } from '@gateway/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../server/test/helpers/databases.js';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { type FakeEpay, startFakeEpay } from './helpers/fake-epay.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, adminApi, signIn } from './helpers/session.js';

const dialects = await availableDialects();
const ALICE = { username: 'alice', password: 'alice-password-1' };
const BOB = { username: 'bob', password: 'bob-password-12' };
const MERCHANT = { pid: '1001', key: 'e2e-merchant-key' };
const UNIT = 500_000; // quota per dollar (the default)
const PLAN = { title: 'Pro 月付', price: 10, quota: 10 * UNIT };
// 0.5 per call × 500 000 quota per unit = 250 000 quota ($0.50) per request.
const PER_CALL = 250_000;

describe.each(dialects)('subscription plans in the console, on %s (built product, mock upstream)', (dialect) => {
  let database: TestDatabase | null = null;
  let journey: UpstreamJourney;
  let product: Product;
  let browser: Browser;
  let mock: MockUpstream;
  let api: AdminApi;
  let gateway: FakeEpay;
  let aliceId = 0;
  let bobId = 0;
  let planId = 0;
  const pictures = dialect === 'sqlite';

  const session = async (credentials?: typeof ALICE, options: { dark?: boolean; width?: number } = {}) => {
    const opened = await newPage(browser, product.baseUrl, {
      width: options.width,
      height: options.width ? 812 : undefined,
    });
    if (options.dark) await opened.context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(opened.page, credentials);
    return opened;
  };
  const subscriptionsOf = (id: number) =>
    api<SubscriptionSummaryView[]>('GET', `/api/subscription/admin/users/${id}/subscriptions`);
  const aliceSubscriptions = () => subscriptionsOf(aliceId);
  const aliceQuota = async () => (await api<{ quota: number }>('GET', `/api/user/${aliceId}`)).quota;
  /** Nothing sticks out to the right of a phone screen. */
  const fitsPhone = async (page: Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  beforeAll(async () => {
    if (dialect !== 'sqlite') database = await createTestDatabase(dialect);
    gateway = await startFakeEpay(MERCHANT);
    journey = await startUpstreamJourney({ env: database ? { SQL_DSN: database.env.SQL_DSN } : {} });
    ({ product, browser, api, mock } = journey);
    await api('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: '订阅渠道',
        key: 'sk-e2e',
        base_url: mock.baseUrl,
        models: 'per-call-model',
        group: 'default',
      },
    });
    await api('PUT', '/api/option/', { key: 'ModelPrice', value: '{"per-call-model": 0.5}' });
    const ids: Record<string, number> = {};
    for (const user of [ALICE, BOB]) {
      await api('POST', '/api/user/', { ...user, display_name: user.username });
      const found = await api<{ items: Array<{ id: number; username: string }> }>(
        'GET',
        `/api/user/search?keyword=${user.username}`,
      );
      ids[user.username] = found.items.find((row) => row.username === user.username)!.id;
    }
    aliceId = ids.alice!;
    bobId = ids.bob!;
    // $20 in the wallet: the plan costs $10 of it.
    await api('POST', '/api/user/manage', { id: aliceId, action: 'add_quota', value: 20 * UNIT });
  }, 120_000);
  afterAll(async () => {
    await journey?.close();
    await gateway?.close();
    await database?.drop();
  });

  it('root creates a plan on the plans page, checked before it is sent', async () => {
    const { context, page } = await session();
    await page.getByRole('link', { name: '订阅套餐' }).click();
    await page.waitForURL('**/subscription');
    await page.getByText('暂无套餐').waitFor();
    if (pictures) await snap(page, 'subscriptions-01-plans-empty');

    await page.getByTestId('plan-create').click();
    const form = page.getByTestId('plan-form');
    await form.waitFor();
    // A blank title is refused in place.
    await form.getByTestId('plan-save').click();
    await form.getByText('请输入标题').waitFor();
    await form.getByLabel('标题').fill(PLAN.title);
    await form.getByLabel('描述').fill('每月 $10 额度');
    await form.getByLabel('价格', { exact: true }).fill(String(PLAN.price));
    await form.getByLabel('每周期额度').fill(String(PLAN.quota));
    await form.getByText('等价于 $10.00').waitFor();
    if (pictures) await snap(page, 'subscriptions-02-plan-form', { fullPage: false });
    await form.getByTestId('plan-save').click();
    await page.getByText('套餐已创建').first().waitFor();

    const list = page.getByTestId('plan-list');
    await list.getByText(PLAN.title).waitFor();
    await list.getByText('10.00 USD').waitFor();
    await list.getByText('$10.00').waitFor();
    await list.getByText('每月').first().waitFor();
    await list.getByText('1 个月').waitFor();
    const plans = await api<SubscriptionPlanItemView[]>('GET', '/api/subscription/admin/plans');
    expect(plans).toHaveLength(1);
    expect(plans[0]!.plan).toMatchObject({
      title: PLAN.title,
      price_amount: PLAN.price,
      total_amount: PLAN.quota,
      quota_reset_period: 'monthly',
      duration_unit: 'month',
      duration_value: 1,
      enabled: true,
      allow_balance_pay: true,
    });
    planId = plans[0]!.plan.id;
    if (pictures) await snap(page, 'subscriptions-03-plans-list');
    await context.close();
  });

  it('alice buys the plan with her balance in the wallet, seeing the cost first', async () => {
    const { context, page } = await session(ALICE);
    await page.goto('/topup');
    const card = page.getByTestId(`wallet-plan-${planId}`);
    await card.getByText(PLAN.title).waitFor();
    await card.getByText('10.00 USD').waitFor();
    // No subscription yet: the card of my subscriptions stays away.
    expect(await page.getByTestId('wallet-my-subscription').count()).toBe(0);
    await card.getByTestId('wallet-plan-buy').click();

    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('wallet-plan-cost').waitFor();
    expect(await dialog.getByTestId('wallet-plan-method-balance').isChecked()).toBe(true);
    expect(await dialog.getByTestId('wallet-plan-cost').textContent()).toBe('从余额扣除 $10.00');
    await dialog.getByText('$10.00', { exact: true }).last().waitFor(); // the balance afterwards
    if (pictures) await snap(page, 'subscriptions-04-buy-confirm', { fullPage: false });
    await dialog.getByTestId('wallet-plan-confirm').click();
    await page.getByText(`已订阅 ${PLAN.title}`).first().waitFor();

    const mine = page.getByTestId('wallet-my-subscription');
    await mine.getByText(PLAN.title).waitFor();
    await mine.getByTestId('subscription-left').getByText('$10.00 / $10.00').waitFor();
    await page.getByTestId('wallet-balance-value').getByText('$10.00').waitFor();
    expect(await aliceQuota()).toBe(10 * UNIT);
    const subs = await aliceSubscriptions();
    expect(subs).toHaveLength(1);
    expect(subs[0]!.subscription).toMatchObject({ plan_id: planId, amount_total: PLAN.quota, status: 'active' });
    if (pictures) await snap(page, 'subscriptions-05-wallet-subscribed');
    await context.close();
  });

  it('a call through the relay is paid by the plan: its quota goes down, the balance does not', async () => {
    const alice = await adminApi(product.baseUrl, ALICE);
    await alice('POST', '/api/token/', { name: 'plan-key', unlimited_quota: true, expired_time: -1, remain_quota: 0 });
    const tokens = await alice<{ items: Array<{ key: string; name: string }> }>('GET', '/api/token/?p=1&size=10');
    const key = tokens.items.find((item) => item.name === 'plan-key')!.key;
    const relay = await fetch(`${product.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'per-call-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(relay.status).toBe(200);
    await relay.arrayBuffer();

    const self = await alice<SubscriptionSelfView>('GET', '/api/subscription/self');
    expect(self.billing_preference).toBe('subscription_first');
    expect(self.subscriptions[0]!.subscription.amount_used).toBe(PER_CALL);

    const { context, page } = await session(ALICE);
    await page.goto('/topup');
    const mine = page.getByTestId('wallet-my-subscription');
    await mine.getByTestId('subscription-left').getByText('$9.50 / $10.00').waitFor();
    await mine.getByTestId('subscription-used').getByText('$0.50').waitFor();
    await page.getByTestId('wallet-balance-value').getByText('$10.00').waitFor();
    expect(await aliceQuota()).toBe(10 * UNIT);

    // She switches which balance pays first; the server keeps the choice.
    await mine.getByTestId('billing-preference').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '优先余额，再用订阅' }).click();
    await page.getByText('已保存').first().waitFor();
    expect((await alice<SubscriptionSelfView>('GET', '/api/subscription/self')).billing_preference).toBe(
      'wallet_first',
    );
    await alice('PUT', '/api/subscription/self/preference', { billing_preference: 'subscription_first' });
    if (pictures) {
      // The select scrolled the page; a full-page picture from there draws the sticky header mid-page.
      await page.evaluate(() => window.scrollTo(0, 0));
      await snap(page, 'subscriptions-06-wallet-after-call');
    }
    await context.close();
  });

  it("the admin sees alice's subscription with its use on her user page and resets the period", async () => {
    const [sub] = await aliceSubscriptions();
    const { context, page } = await session();
    await page.goto(`/user/edit/${aliceId}`);
    const item = page.getByTestId(`user-subscription-${sub!.subscription.id}`);
    await item.getByText(PLAN.title).waitFor();
    await item.getByText('生效中').waitFor();
    await item.getByTestId('subscription-used').getByText('$0.50').waitFor();
    await item.getByText('余额支付').waitFor();
    await item.scrollIntoViewIfNeeded();
    if (pictures) await snap(page, 'subscriptions-07-user-drawer', { fullPage: false });

    await item.getByTestId('user-subscription-reset').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '重置周期' }).click();
    await page.getByText('周期额度已重置').first().waitFor();
    await item.getByTestId('subscription-used').getByText('$0.00').waitFor();
    await item.getByTestId('subscription-left').getByText('$10.00 / $10.00').waitFor();
    const [after] = await aliceSubscriptions();
    expect(after!.subscription.amount_used).toBe(0);
    expect(after!.subscription.status).toBe('active');
    expect(await aliceQuota()).toBe(10 * UNIT);
    await context.close();
  });

  it('bob, with an empty wallet, pays for the plan through the epay gateway instead', async () => {
    for (const [key, value] of [
      ['ServerAddress', product.baseUrl],
      ['PayAddress', gateway.baseUrl],
      ['EpayId', MERCHANT.pid],
      ['EpayKey', MERCHANT.key],
    ]) {
      await api('PUT', '/api/option/', { key, value });
    }
    const { context, page } = await session(BOB);
    await page.goto('/topup');
    await page.getByTestId(`wallet-plan-${planId}`).getByTestId('wallet-plan-buy').click();
    const dialog = page.getByRole('dialog');
    // The balance cannot pay: said so, and the button stays off until another way is chosen.
    await dialog.getByText('余额不足以购买此套餐，请先充值或选择其他支付方式。').waitFor();
    expect(await dialog.getByTestId('wallet-plan-confirm').isDisabled()).toBe(true);
    await dialog.locator('.ant-radio-button-wrapper', { hasText: '支付宝' }).click();
    expect(await dialog.getByTestId('wallet-plan-cost').textContent()).toBe('10.00 USD');
    if (pictures) await snap(page, 'subscriptions-08-buy-epay', { fullPage: false });
    await dialog.getByTestId('wallet-plan-confirm').click();

    await page.waitForURL(`${gateway.baseUrl}/submit.php`);
    await page.getByTestId('gateway-signature').getByText('签名正确').waitFor();
    expect(gateway.orders.at(-1)!.fields).toMatchObject({ type: 'alipay', money: '10.00' });
    await page.getByRole('button', { name: '确认支付' }).click();
    await page.waitForURL('**/topup?pay=success');
    const mine = page.getByTestId('wallet-my-subscription');
    await mine.getByText(PLAN.title).waitFor();
    await mine.getByTestId('subscription-left').getByText('$10.00 / $10.00').waitFor();
    expect(gateway.notifyAnswers).toEqual(['success']);
    const [bought] = await subscriptionsOf(bobId);
    expect(bought!.subscription).toMatchObject({ plan_id: planId, status: 'active', source: 'order' });
    expect((await api<{ quota: number }>('GET', `/api/user/${bobId}`)).quota).toBe(0);
    await context.close();
  });

  it.runIf(pictures)('reads well in dark mode and at 375 px', async () => {
    const dark = await session(ALICE, { dark: true });
    await dark.page.goto('/topup');
    await dark.page.getByTestId('wallet-my-subscription').getByTestId('subscription-left').waitFor();
    await dark.page.getByTestId(`wallet-plan-${planId}`).waitFor();
    await snap(dark.page, 'subscriptions-09-wallet-dark');
    await dark.context.close();

    const phone = await session(ALICE, { width: 375 });
    await phone.page.goto('/topup');
    const plan = phone.page.getByTestId(`wallet-plan-${planId}`);
    await plan.waitFor();
    await phone.page.getByTestId('wallet-my-subscription').getByTestId('subscription-left').waitFor();
    await fitsPhone(phone.page);
    await snap(phone.page, 'subscriptions-10-wallet-375');
    await plan.getByTestId('wallet-plan-buy').click();
    await phone.page.getByRole('dialog').getByTestId('wallet-plan-cost').waitFor();
    await snap(phone.page, 'subscriptions-11-buy-375', { fullPage: false });
    await phone.context.close();

    const admin = await session(undefined, { width: 375, dark: true });
    await admin.page.goto('/subscription');
    await admin.page.getByTestId(`plan-row-${planId}`).getByText(PLAN.title).waitFor();
    await fitsPhone(admin.page);
    await snap(admin.page, 'subscriptions-12-plans-375-dark');
    await admin.page.goto(`/user/edit/${aliceId}`);
    await admin.page.getByTestId('user-subscriptions').getByText(PLAN.title).waitFor();
    await admin.page.getByTestId('user-subscriptions').scrollIntoViewIfNeeded();
    await snap(admin.page, 'subscriptions-13-user-drawer-375-dark', { fullPage: false });
    await admin.context.close();
  });
});
