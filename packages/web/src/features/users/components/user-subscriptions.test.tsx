import type { SubscriptionSummaryView } from '@gateway/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { planFixture, subscriptionFixture } from '../../../test/subscription-fixtures';
import { UserSubscriptions } from './user-subscriptions';

const PLAN = planFixture({ id: 4 });

function entry(id: number, status: 'active' | 'cancelled', used: number): SubscriptionSummaryView {
  return {
    plan: PLAN,
    subscription: subscriptionFixture(PLAN, { id, user_id: 7, amount_used: used, status, source: 'order' }),
  };
}

function button(text: string, scope: HTMLElement = document.body): HTMLButtonElement {
  return within(scope).getByText(text, { selector: 'button span, button' }).closest('button')!;
}

function renderSection(handlers: Record<string, MockHandler>) {
  const api = mockFetch({ 'GET /api/status': ok(statusFixture()), ...handlers });
  renderPage(<UserSubscriptions userId={7} />, { path: '/user/edit/7' });
  return api;
}

describe("a user's subscriptions in the admin's user drawer", () => {
  it('shows each subscription with its use; resets and ends an active one after confirming', async () => {
    const user = setupUser();
    let used = 1_000_000;
    const { requests } = renderSection({
      'GET /api/subscription/admin/users/7/subscriptions': () =>
        ok([entry(11, 'active', used), entry(10, 'cancelled', 5_000_000)]),
      'POST /api/subscription/admin/users/7/subscriptions/reset': () => {
        used = 0;
        return ok();
      },
      'POST /api/subscription/admin/user_subscriptions/11/invalidate': ok(),
    });
    const active = await screen.findByTestId('user-subscription-11');
    expect(within(active).getByText('生效中')).toBeTruthy();
    expect(within(active).getByText('$8.00 / $10.00')).toBeTruthy();
    expect(within(active).getByText('在线支付', { exact: false })).toBeTruthy();
    const ended = screen.getByTestId('user-subscription-10');
    expect(within(ended).getByText('已作废')).toBeTruthy();
    // An ended subscription has nothing left to reset or end.
    expect(within(ended).queryByTestId('user-subscription-reset')).toBeNull();

    await user.click(within(active).getByTestId('user-subscription-reset'));
    expect(requests.some((r) => r.path.endsWith('/reset'))).toBe(false);
    await user.click(button('重置周期', document.querySelector<HTMLElement>('.ant-popconfirm')!));
    await waitFor(() => expect(requests.find((r) => r.path.endsWith('/reset'))?.body).toEqual({ plan_id: 4 }));
    expect(await within(active).findByText('$10.00 / $10.00')).toBeTruthy();

    await user.click(within(active).getByTestId('user-subscription-invalidate'));
    await user.click(button('立即作废', document.querySelectorAll<HTMLElement>('.ant-popconfirm')[1]!));
    await waitFor(() => expect(requests.some((r) => r.path.endsWith('/11/invalidate'))).toBe(true));
  });

  it('grants a plan without payment', async () => {
    const user = setupUser();
    const { requests } = renderSection({
      'GET /api/subscription/admin/users/7/subscriptions': ok([]),
      'GET /api/subscription/admin/plans': ok([{ plan: PLAN }]),
      'POST /api/subscription/admin/users/7/subscriptions': ok(),
    });
    expect(await screen.findByText('暂无订阅')).toBeTruthy();
    await user.click(screen.getByTestId('user-subscription-add'));
    const grant = await screen.findByTestId('user-subscription-grant');
    expect(within(grant).getByTestId('user-subscription-grant-confirm').closest('button')!.disabled).toBe(true);
    await user.click(within(grant).getByText('选择套餐'));
    await user.click(
      await screen.findByText('Pro · $10.00 / 每周 · 1 个月', { selector: '.ant-select-item-option-content' }),
    );
    await user.click(within(grant).getByTestId('user-subscription-grant-confirm'));
    await waitFor(() => expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ plan_id: 4 }));
    expect(await screen.findByText('已为用户添加套餐')).toBeTruthy();
  });
});
