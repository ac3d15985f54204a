import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { fail, type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import WalletPage from './wallet-page';

// The hosted checkout pages are elsewhere: the test records where the wallet would send the browser.
const checkout = vi.hoisted(() => ({ urls: [] as string[] }));
vi.mock('../api/use-card-pay', async (original) => ({
  ...(await original<typeof import('../api/use-card-pay')>()),
  goToCheckout: (url: string) => checkout.urls.push(url),
}));

function self(quota: number) {
  return {
    id: 1,
    username: 'alice',
    display_name: 'Alice',
    role: 1,
    status: 1,
    group: 'default',
    quota,
    used_quota: 250000,
    request_count: 1234,
  };
}

/** The element behind a test id, or the input inside it (antd may put the id on a wrapper). */
function inputOf(testId: string): HTMLInputElement {
  const element = screen.getByTestId(testId);
  return (element instanceof HTMLInputElement ? element : element.querySelector('input'))!;
}

const INFO = {
  enable_online_topup: true,
  min_topup: 1,
  price: 7.3,
  amount_options: [10, 20, 50, 100, 200, 500],
  discount: {},
};

const CARD_INFO = {
  ...INFO,
  enable_online_topup: false,
  enable_stripe_topup: true,
  stripe_min_topup: 2,
  enable_creem_topup: true,
  creem_products: JSON.stringify([
    { productId: 'prod_small', name: 'Small pack', price: 4.99, currency: 'USD', quota: 2_500_000 },
  ]),
};

const HISTORY = [
  {
    id: 2,
    amount: 10,
    money: 73,
    trade_no: 'USR1NOabc',
    payment_method: 'wxpay',
    create_time: 1_760_000_000,
    complete_time: 0,
    status: 'pending',
  },
  {
    id: 1,
    amount: 250_000,
    money: 0,
    trade_no: 'REDEEM7',
    payment_method: 'redemption',
    create_time: 1_759_000_000,
    complete_time: 1_759_000_000,
    status: 'success',
  },
];

function renderWallet(handlers: Record<string, MockHandler> = {}, url = '/topup') {
  setStoredUser({ id: 1, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' });
  const api = mockFetch({
    'GET /api/status': ok(statusFixture({ min_topup: 1 })),
    'GET /api/user/self': ok(self(1_000_000)),
    'GET /api/user/topup/info': ok(INFO),
    'GET /api/user/topup/self': ok({ items: HISTORY, total: HISTORY.length }),
    'POST /api/user/amount': (request) => ok(((request.body as { amount: number }).amount * 7.3).toFixed(2)),
    // No plans on sale and none bought: the subscription cards stay away (wallet-subscription.test.tsx has them).
    'GET /api/subscription/plans': ok([]),
    'GET /api/subscription/self': ok({
      billing_preference: 'subscription_first',
      subscriptions: [],
      all_subscriptions: [],
    }),
    ...handlers,
  });
  renderPage(<WalletPage />, { path: '/topup', url });
  return api;
}

function checkinStatus(done: boolean) {
  const records = [
    { checkin_date: '2026-03-02', quota_awarded: 250_000 },
    { checkin_date: '2026-03-01', quota_awarded: 500_000 },
  ];
  return {
    enabled: true,
    min_quota: 250_000,
    max_quota: 1_000_000,
    stats: {
      total_quota: done ? 1_250_000 : 750_000,
      total_checkins: done ? 3 : 2,
      checkin_count: done ? 3 : 2,
      checked_in_today: done,
      records: done ? [{ checkin_date: '2026-03-03', quota_awarded: 500_000 }, ...records] : records,
      today: '2026-03-03',
      streak: done ? 3 : 2,
    },
  };
}

describe('wallet page', () => {
  it('has no check-in card while the operator has check-in off', async () => {
    renderWallet();
    await screen.findByTestId('wallet-balance');
    expect(screen.queryByTestId('wallet-checkin')).toBeNull();
  });

  it('checks in once: the reward, the streak and the day in the calendar, then the button is done', async () => {
    const user = setupUser();
    let done = false;
    const { requests } = renderWallet({
      'GET /api/status': ok(statusFixture({ min_topup: 1, checkin_enabled: true })),
      'GET /api/user/checkin': () => ok(checkinStatus(done)),
      'POST /api/user/checkin': () => {
        done = true;
        return ok({ quota_awarded: 500_000, checkin_date: '2026-03-03' }, '签到成功');
      },
    });
    const card = await screen.findByTestId('wallet-checkin');
    expect((await within(card).findByTestId('checkin-streak')).textContent).toBe('2');
    expect(within(card).getByText('每日奖励：$0.50 至 $2.00')).toBeTruthy();
    expect(within(card).getAllByTestId('checkin-day-done')).toHaveLength(2);
    expect(within(card).getByLabelText('2026-03-01：已签到，获得 $1.00')).toBeTruthy();

    await user.click(within(card).getByTestId('checkin-button'));
    expect(await screen.findByText('签到成功，获得 $1.00')).toBeTruthy();
    await waitFor(() => expect(within(card).getByTestId('checkin-streak').textContent).toBe('3'));
    expect(within(card).getAllByTestId('checkin-day-done')).toHaveLength(3);
    const button = within(card).getByTestId('checkin-button');
    expect(button.textContent).toContain('今日已签到');
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/api/user/checkin')).toHaveLength(1);
  });

  it('pages back a month and asks the server for it', async () => {
    const user = setupUser();
    const { requests } = renderWallet({
      'GET /api/status': ok(statusFixture({ min_topup: 1, checkin_enabled: true })),
      'GET /api/user/checkin': () => ok(checkinStatus(false)),
    });
    const card = await screen.findByTestId('wallet-checkin');
    await within(card).findByTestId('checkin-streak');
    expect(within(card).getByRole('button', { name: '下个月' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(card).getByRole('button', { name: '上个月' }));
    await waitFor(() =>
      expect(
        requests.some((r) => r.path === '/api/user/checkin' && r.url.searchParams.get('month') === '2026-02'),
      ).toBe(true),
    );
  });

  it('checks the code, redeems it, shows the amount added and refreshes the balance', async () => {
    const user = setupUser();
    let balance = 1_000_000;
    const { requests } = renderWallet({
      'GET /api/user/self': () => ok(self(balance)),
      'POST /api/user/topup': () => {
        balance += 500_000;
        return ok(500_000, '兑换成功');
      },
    });
    const card = await screen.findByTestId('wallet-balance');
    expect(await within(card).findByText('$2.00')).toBeTruthy();
    expect(within(card).getByText('$0.50')).toBeTruthy();
    expect(within(card).getByText('1,234')).toBeTruthy();

    await user.click(screen.getByTestId('wallet-redeem'));
    expect(await screen.findByText('请输入兑换码！')).toBeTruthy();
    expect(requests.some((r) => r.path === '/api/user/topup')).toBe(false);

    await fill(user, inputOf('wallet-redeem-input'), '  CODE-123  ');
    await user.click(screen.getByTestId('wallet-redeem'));
    expect(await screen.findByText('兑换成功，到账 $1.00')).toBeTruthy();
    expect(requests.find((r) => r.path === '/api/user/topup')?.body).toEqual({ key: 'CODE-123' });
    expect(await within(card).findByText('$3.00')).toBeTruthy();
    expect(inputOf('wallet-redeem-input').value).toBe('');
  });

  it('quotes the payable money, then submits the gateway form to the returned url', async () => {
    const user = setupUser();
    const submitted: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push(this.cloneNode(true) as HTMLFormElement);
    });
    const fields = {
      pid: '1001',
      type: 'zfb',
      out_trade_no: 'USR1NOabc',
      money: '73.00',
      sign: 'deadbeef',
      sign_type: 'MD5',
    };
    const { requests } = renderWallet({
      'POST /api/user/pay': new Response(
        JSON.stringify({ success: true, message: 'success', data: fields, url: 'https://pay.example.com/submit.php' }),
        { headers: { 'Content-Type': 'application/json' } },
      ),
    });
    const payable = await screen.findByTestId('wallet-payable');
    expect(await within(payable).findByText('¥7.30')).toBeTruthy();

    await user.click(screen.getByText('100', { selector: 'button span, button' }));
    expect(await within(payable).findByText('¥730.00')).toBeTruthy();
    const amount = inputOf('wallet-amount');
    await user.clear(amount);
    await fill(user, amount, '10');
    expect(await within(payable).findByText('¥73.00')).toBeTruthy();

    await user.click(screen.getByTestId('wallet-pay-zfb'));
    const confirm = (await screen.findByText('前往支付')).closest('button')!;
    await user.click(confirm);
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(requests.find((r) => r.path === '/api/user/pay')?.body).toEqual({ amount: 10, payment_method: 'zfb' });
    const form = submitted[0]!;
    expect(form.action).toBe('https://pay.example.com/submit.php');
    expect(form.method.toLowerCase()).toBe('post');
    const sent = Object.fromEntries([...form.querySelectorAll('input')].map((input) => [input.name, input.value]));
    expect(sent).toEqual(fields);
  });

  it('pays by card: Stripe for an amount, Creem for a pack, each sent to the checkout page the server answered', async () => {
    const user = setupUser();
    checkout.urls.length = 0;
    const stripeRow = { ...HISTORY[0]!, id: 3, payment_method: 'stripe', payment_provider: 'stripe', money: 2 };
    const { requests } = renderWallet({
      'GET /api/user/topup/info': ok(CARD_INFO),
      'GET /api/user/topup/self': ok({ items: [stripeRow], total: 1 }),
      'POST /api/user/stripe/amount': (request) => ok((request.body as { amount: number }).amount.toFixed(2)),
      'POST /api/user/stripe/pay': ok({ pay_link: 'https://checkout.stripe.com/c/pay/cs_test_1' }),
      'POST /api/user/creem/pay': ok({ checkout_url: 'https://creem.io/checkout/ch_1', order_id: 'ref_1' }),
    });
    const payable = await screen.findByTestId('wallet-payable-stripe');
    expect(await within(payable).findByText('$2.00')).toBeTruthy();
    // Epay is off: only the card is offered.
    expect(screen.queryByTestId('wallet-pay-zfb')).toBeNull();
    await user.click(screen.getByTestId('wallet-pay-stripe'));
    await user.click((await screen.findByText('前往支付')).closest('button')!);
    await waitFor(() => expect(checkout.urls).toEqual(['https://checkout.stripe.com/c/pay/cs_test_1']));
    expect(requests.find((r) => r.path === '/api/user/stripe/pay')?.body).toEqual({
      amount: 2,
      payment_method: 'stripe',
    });

    await user.click(await screen.findByTestId('wallet-creem-prod_small'));
    expect(await within(await screen.findByRole('dialog')).findByText('4.99 USD')).toBeTruthy();
    await user.click((await screen.findByText('前往支付')).closest('button')!);
    await waitFor(() => expect(checkout.urls).toHaveLength(2));
    expect(checkout.urls[1]).toBe('https://creem.io/checkout/ch_1');
    expect(requests.find((r) => r.path === '/api/user/creem/pay')?.body).toEqual({
      product_id: 'prod_small',
      payment_method: 'creem',
    });
    expect(await within(screen.getByTestId('wallet-history')).findByText('银行卡（Stripe）')).toBeTruthy();
  });

  it('shows the server refusals for the quote and for paying', async () => {
    const user = setupUser();
    renderWallet({
      'POST /api/user/amount': fail('充值数量不能小于 5'),
      'POST /api/user/pay': fail('管理员未开启在线充值'),
    });
    const payable = await screen.findByTestId('wallet-payable');
    expect(await within(payable).findByText('充值数量不能小于 5')).toBeTruthy();

    await user.click(screen.getByTestId('wallet-pay-wx'));
    await user.click((await screen.findByText('前往支付')).closest('button')!);
    expect(await screen.findByText('管理员未开启在线充值')).toBeTruthy();
  });

  it('offers no online top-up and no "buy a code" link when the operator configured neither', async () => {
    renderWallet({
      'GET /api/user/topup/info': ok({ ...INFO, enable_online_topup: false }),
    });
    expect(await screen.findByTestId('wallet-redeem')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('wallet-pay-zfb')).toBeNull());
    expect(screen.queryByText('购买兑换码')).toBeNull();
  });

  it('offers the operator quick picks with their discounts', async () => {
    renderWallet({
      'GET /api/user/topup/info': ok({
        ...INFO,
        min_topup: 5,
        amount_options: [5, 30, 100],
        discount: { '100': 0.9 },
      }),
    });
    expect(await screen.findByText('9折')).toBeTruthy();
    expect(screen.getByText('30', { selector: 'button span, button' })).toBeTruthy();
    expect(screen.queryByText('500', { selector: 'button span, button' })).toBeNull();
  });

  it('shows the outcome the payment gateway returned with, and the top-up history', async () => {
    renderWallet({}, '/topup?pay=success');
    expect(await screen.findByText('支付成功，额度已到账')).toBeTruthy();
    // The history: a pending WeChat order of 10 units ($10.00 for ¥73.00) and a redeemed $0.50 code.
    const history = await screen.findByTestId('wallet-history');
    expect(await within(history).findByText('待支付')).toBeTruthy();
    expect(within(history).getByText('微信支付')).toBeTruthy();
    expect(within(history).getByText('¥73.00')).toBeTruthy();
    expect(within(history).getByText('$10.00')).toBeTruthy();
    expect(within(history).getByText('兑换码')).toBeTruthy();
    expect(within(history).getByText('$0.50')).toBeTruthy();
  });
});
