import type { SubscriptionPlanView, SubscriptionSelfView } from '@gateway/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { fail, type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { planFixture, subscriptionFixture } from '../../../test/subscription-fixtures';
import WalletPage from './wallet-page';

const checkout = vi.hoisted(() => ({ urls: [] as string[] }));
vi.mock('../api/use-card-pay', async (original) => ({
  ...(await original<typeof import('../api/use-card-pay')>()),
  goToCheckout: (url: string) => checkout.urls.push(url),
}));

const UNIT = 500_000;

/** The wallet's plan: "Pro" with a subtitle, $4 a day for a month, unlocking "vip". */
function plan(overrides: Partial<SubscriptionPlanView> = {}): SubscriptionPlanView {
  return planFixture({
    subtitle: 'For daily work',
    upgrade_group: 'vip',
    total_amount: 4 * UNIT,
    quota_reset_period: 'daily',
    ...overrides,
  });
}

const SUBSCRIPTION = subscriptionFixture(plan(), {
  amount_used: UNIT,
  next_reset_time: 1_760_086_400,
  prev_user_group: 'default',
});

const NONE: SubscriptionSelfView = {
  billing_preference: 'subscription_first',
  subscriptions: [],
  all_subscriptions: [],
};
const SUBSCRIBED: SubscriptionSelfView = {
  billing_preference: 'subscription_first',
  subscriptions: [{ subscription: SUBSCRIPTION, plan: plan() }],
  all_subscriptions: [{ subscription: SUBSCRIPTION, plan: plan() }],
};

function renderWallet(handlers: Record<string, MockHandler> = {}) {
  setStoredUser({ id: 1, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' });
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/user/self': ok({
      id: 1,
      username: 'alice',
      role: 1,
      status: 1,
      group: 'default',
      quota: 25 * UNIT,
      used_quota: 0,
      request_count: 0,
    }),
    'GET /api/user/topup/info': ok({
      enable_online_topup: false,
      min_topup: 1,
      price: 7.3,
      amount_options: [],
      discount: {},
    }),
    'GET /api/user/topup/self': ok({ items: [], total: 0 }),
    'GET /api/subscription/plans': ok([{ plan: plan() }]),
    'GET /api/subscription/self': ok(NONE),
    ...handlers,
  });
  renderPage(<WalletPage />, { path: '/topup' });
  return api;
}

function button(text: string, scope: HTMLElement = document.body): HTMLButtonElement {
  return within(scope).getByText(text, { selector: 'button span, button' }).closest('button')!;
}

describe('subscription plans in the wallet', () => {
  it('shows each plan with its facts, buys it with the balance after showing the cost, then my subscription', async () => {
    const user = setupUser();
    let bought = false;
    const { requests } = renderWallet({
      'GET /api/subscription/self': () => ok(bought ? SUBSCRIBED : NONE),
      'POST /api/subscription/balance/pay': () => {
        bought = true;
        return ok(undefined, '订阅购买成功');
      },
    });
    const card = await screen.findByTestId('wallet-plan-3');
    expect(within(card).getByText('Pro')).toBeTruthy();
    expect(within(card).getByText('10.00 USD')).toBeTruthy();
    expect(within(card).getByText('$4.00')).toBeTruthy();
    expect(within(card).getByText('每天')).toBeTruthy();
    expect(within(card).getByText('1 个月')).toBeTruthy();
    expect(within(card).getByText('vip')).toBeTruthy();
    expect(screen.queryByTestId('wallet-my-subscription')).toBeNull();

    await user.click(within(card).getByTestId('wallet-plan-buy'));
    const dialog = await screen.findByRole('dialog');
    // Online top-up is off: the balance is the only way to pay.
    expect(within(dialog).queryByText('支付宝')).toBeNull();
    expect(within(dialog).getByTestId('wallet-plan-cost').textContent).toBe('从余额扣除 $10.00');
    expect(within(dialog).getByText('$15.00')).toBeTruthy();
    await user.click(button('余额支付', dialog));

    expect(await screen.findByText('已订阅 Pro')).toBeTruthy();
    expect(requests.find((r) => r.path === '/api/subscription/balance/pay')?.body).toEqual({ plan_id: 3 });
    const mine = await screen.findByTestId('wallet-my-subscription');
    expect(await within(mine).findByText('$3.00 / $4.00')).toBeTruthy();
    expect(within(mine).getByTestId('subscription-used').textContent).toBe('$1.00');
  });

  it('keeps the dialog open with the server refusal, and offers epay and Stripe as the top-up does', async () => {
    const user = setupUser();
    renderWallet({
      'GET /api/user/topup/info': ok({
        enable_online_topup: true,
        enable_stripe_topup: true,
        min_topup: 1,
        price: 7.3,
        amount_options: [],
        discount: {},
      }),
      'GET /api/subscription/plans': ok([{ plan: plan({ stripe_price_id: 'price_pro' }) }]),
      'POST /api/subscription/balance/pay': fail('已达到该套餐的购买上限（1 次）'),
      'POST /api/subscription/stripe/pay': ok({ pay_link: 'https://checkout.stripe.test/pay/cs_1' }),
    });
    await user.click(within(await screen.findByTestId('wallet-plan-3')).getByTestId('wallet-plan-buy'));
    const dialog = await screen.findByRole('dialog');
    for (const method of ['钱包余额', '支付宝', '微信支付', '银行卡（Stripe）'])
      expect(within(dialog).getByText(method)).toBeTruthy();
    await user.click(button('余额支付', dialog));
    expect(await within(dialog).findByText('已达到该套餐的购买上限（1 次）')).toBeTruthy();

    await user.click(within(dialog).getByText('银行卡（Stripe）'));
    expect(within(dialog).getByTestId('wallet-plan-cost').textContent).toBe('10.00 USD');
    await user.click(button('前往支付', dialog));
    await waitFor(() => expect(checkout.urls).toContain('https://checkout.stripe.test/pay/cs_1'));
  });

  it('offers Creem for a plan with a Creem product when the server can sell plans there, even without top-up products', async () => {
    const user = setupUser();
    renderWallet({
      'GET /api/user/topup/info': ok({
        enable_online_topup: false,
        enable_creem_topup: false,
        enable_creem_subscription: true,
        min_topup: 1,
        price: 7.3,
        amount_options: [],
        discount: {},
      }),
      'GET /api/subscription/plans': ok([
        { plan: plan({ creem_product_id: 'prod_pro' }) },
        { plan: plan({ id: 4, title: 'Lite' }) },
      ]),
    });
    await user.click(within(await screen.findByTestId('wallet-plan-3')).getByTestId('wallet-plan-buy'));
    expect(within(await screen.findByRole('dialog')).getByText('Creem')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // A plan without a Creem product is not offered there.
    await user.click(within(await screen.findByTestId('wallet-plan-4')).getByTestId('wallet-plan-buy'));
    expect(within(await screen.findByRole('dialog')).queryByText('Creem')).toBeNull();
  });

  it('pays through epay by posting the signed form to the gateway the server answered', async () => {
    const user = setupUser();
    const submitted: HTMLFormElement[] = [];
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      submitted.push(this.cloneNode(true) as HTMLFormElement);
    });
    const fields = {
      pid: '1001',
      type: 'alipay',
      out_trade_no: 'sub_ref_1',
      money: '10.00',
      sign: 'x',
      sign_type: 'MD5',
    };
    const { requests } = renderWallet({
      'GET /api/user/topup/info': ok({
        enable_online_topup: true,
        min_topup: 1,
        price: 7.3,
        amount_options: [],
        discount: {},
      }),
      'GET /api/subscription/plans': ok([{ plan: plan({ allow_balance_pay: false }) }]),
      'POST /api/subscription/epay/pay': {
        success: true,
        message: 'success',
        data: fields,
        url: 'https://pay.example/submit.php',
      } as never,
    });
    await user.click(within(await screen.findByTestId('wallet-plan-3')).getByTestId('wallet-plan-buy'));
    const dialog = await screen.findByRole('dialog');
    // The plan is not sold for the balance: epay's methods only, the first one chosen.
    expect(within(dialog).queryByText('钱包余额')).toBeNull();
    await user.click(button('前往支付', dialog));
    await waitFor(() => expect(submitted).toHaveLength(1));
    expect(requests.find((r) => r.path === '/api/subscription/epay/pay')?.body).toEqual({
      plan_id: 3,
      payment_method: 'zfb',
    });
    expect(submitted[0]!.action).toBe('https://pay.example/submit.php');
    expect(new FormData(submitted[0]!).get('out_trade_no')).toBe('sub_ref_1');
  });

  it('changes which balance pays first', async () => {
    const user = setupUser();
    const { requests } = renderWallet({
      'GET /api/subscription/self': ok(SUBSCRIBED),
      'PUT /api/subscription/self/preference': (request) => ok(request.body),
    });
    const mine = await screen.findByTestId('wallet-my-subscription');
    expect(await within(mine).findByText('$3.00 / $4.00')).toBeTruthy();
    await user.click(within(mine).getByText('优先订阅，再用余额'));
    await user.click(await screen.findByText('仅用余额', { selector: '.ant-select-item-option-content' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({ billing_preference: 'wallet_only' }),
    );
    expect(await within(mine).findByText('调用只使用余额，不动用套餐额度。')).toBeTruthy();
  });
});
