import type { SubscriptionPlanView } from '@gateway/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import SubscriptionPage from './subscription-page';

function plan(overrides: Partial<SubscriptionPlanView> = {}): SubscriptionPlanView {
  return {
    id: 1,
    title: 'Starter',
    subtitle: '',
    price_amount: 5,
    currency: 'USD',
    duration_unit: 'day',
    duration_value: 30,
    custom_seconds: 0,
    enabled: true,
    sort_order: 0,
    stripe_price_id: '',
    creem_product_id: '',
    max_purchase_per_user: 2,
    upgrade_group: '',
    total_amount: 1_000_000,
    quota_reset_period: 'custom',
    quota_reset_custom_seconds: 7200,
    allow_balance_pay: true,
    created_at: 1_760_000_000,
    updated_at: 1_760_000_000,
    ...overrides,
  };
}

function button(text: string, scope: HTMLElement = document.body): HTMLButtonElement {
  return within(scope).getByText(text, { selector: 'button span, button' }).closest('button')!;
}

function renderPlans(handlers: Record<string, MockHandler> = {}) {
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/group/': ok(['default', 'vip']),
    'GET /api/subscription/admin/plans': ok([
      { plan: plan() },
      { plan: plan({ id: 2, title: 'Old', enabled: false }) },
    ]),
    ...handlers,
  });
  renderPage(<SubscriptionPage />, { path: '/subscription' });
  return api;
}

describe('subscription plans page', () => {
  it('lists every plan with its facts, and no subscriber column the server does not fill', async () => {
    renderPlans();
    const list = await screen.findByTestId('plan-list');
    const row = (await within(list).findByText('Starter')).closest('tr')!;
    for (const text of ['5.00 USD', '$2.00', '每 2 小时', '30 天', '不变更分组', '2', '在售']) {
      expect(within(row).getByText(text)).toBeTruthy();
    }
    expect(within(list).getByText('已下架')).toBeTruthy();
    // The server does not count subscribers: no column that would only show dashes.
    expect(within(list).queryByText('订阅人数')).toBeNull();
  });

  it('checks the form before creating, then sends the plan as the family takes it', async () => {
    const user = setupUser();
    const { requests } = renderPlans({
      'GET /api/subscription/admin/plans': ok([]),
      'POST /api/subscription/admin/plans': ok(plan({ id: 5 })),
    });
    expect(await screen.findByText('暂无套餐')).toBeTruthy();
    await user.click(screen.getByTestId('plan-create'));
    const form = await screen.findByTestId('plan-form');
    await user.click(within(form).getByTestId('plan-save'));
    expect(await within(form).findByText('请输入标题')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await fill(user, within(form).getByLabelText('标题'), ' Team ');
    await user.click(button('$50', form));
    expect(within(form).getByText('等价于 $50.00')).toBeTruthy();
    await user.click(within(form).getByTestId('plan-save'));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    const body = requests.find((r) => r.method === 'POST')!.body as { plan: SubscriptionPlanView };
    expect(body.plan).toMatchObject({
      title: 'Team',
      price_amount: 10,
      currency: 'USD',
      total_amount: 25_000_000,
      quota_reset_period: 'monthly',
      duration_unit: 'month',
      duration_value: 1,
      upgrade_group: '',
      enabled: true,
      allow_balance_pay: true,
    });
    expect(await screen.findByText('套餐已创建')).toBeTruthy();
  });

  it('takes a plan off sale and deletes one only after confirming', async () => {
    const user = setupUser();
    const { requests } = renderPlans({
      'PATCH /api/subscription/admin/plans/1': ok(),
      'DELETE /api/subscription/admin/plans/2': ok(),
    });
    const list = await screen.findByTestId('plan-list');
    const starter = (await within(list).findByText('Starter')).closest('tr')!;
    await user.click(within(starter).getByTestId('plan-toggle'));
    await waitFor(() => expect(requests.find((r) => r.method === 'PATCH')?.body).toEqual({ enabled: false }));
    expect(await screen.findByText('套餐已下架')).toBeTruthy();

    const old = within(list).getByText('Old').closest('tr')!;
    await user.click(within(old).getByTestId('plan-delete'));
    expect(await screen.findByText('删除套餐「Old」？')).toBeTruthy();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(button('删除', document.querySelector<HTMLElement>('.ant-popconfirm')!));
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE' && r.path.endsWith('/2'))).toBe(true));
  });
});
