import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import type { Redemption } from '../types';
import RedemptionPage from './redemption-page';

const KEY_A = 'abcdef0123456789abcdef012345WXYZ';
const KEY_B = 'zyxwvu9876543210zyxwvu98765USED';

function code(overrides: Partial<Redemption> = {}): Redemption {
  return {
    id: 1,
    user_id: 1,
    key: KEY_A,
    status: 1,
    name: 'launch',
    quota: 100000,
    created_time: 1_700_000_000,
    redeemed_time: 0,
    used_user_id: 0,
    expired_time: 0,
    ...overrides,
  };
}

const CODES = [
  code(),
  code({ id: 2, key: KEY_B, name: 'spent', status: 3, used_user_id: 7, redeemed_time: 1_700_000_500 }),
];

/** Buttons by their visible text: role queries walk antd's whole tree and are slow in jsdom. */
function button(text: string, scope: HTMLElement = document.body): HTMLButtonElement {
  const label = within(scope).getByText(text, { selector: 'button span, button' });
  return label.closest('button')!;
}

function stubClipboard() {
  const writeText = vi.fn(async (_text: string) => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}

function renderRedemptions(handlers: Record<string, MockHandler> = {}) {
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/redemption/': ok({ items: CODES, total: CODES.length, page: 1, page_size: 10 }),
    ...handlers,
  });
  renderPage(<RedemptionPage />, { path: '/redemption' });
  return api;
}

describe('redemption page', () => {
  it('lists codes with status, formatted quota and masked keys; a used code cannot be enabled or edited', async () => {
    const { requests } = renderRedemptions();
    const table = await screen.findByTestId('redemption-table');
    expect(await within(table).findByText('launch')).toBeTruthy();
    expect(within(table).getByText('未使用')).toBeTruthy();
    expect(within(table).getByText('已使用')).toBeTruthy();
    expect(within(table).getAllByText('$0.20')).toHaveLength(2);
    expect(within(table).getByText('abcdef…WXYZ')).toBeTruthy();
    expect(within(table).getByText('用户 #7')).toBeTruthy();
    expect(within(table).queryByText(KEY_A)).toBeNull();
    expect(requests.find((r) => r.path === '/api/redemption/')?.url.searchParams.get('page_size')).toBe('10');

    const [unusedRow, usedRow] = [...table.querySelectorAll<HTMLElement>('tbody tr[data-row-key]')];
    expect(button('禁用', unusedRow).disabled).toBe(false);
    expect(button('启用', usedRow).disabled).toBe(true);
    expect(within(usedRow!).getByLabelText('编辑').closest('button')!.disabled).toBe(true);
    expect(within(unusedRow!).getByLabelText('编辑').closest('button')!.disabled).toBe(false);
  });

  it('creates codes with integers and the quota as the default name, then lists the keys to copy', async () => {
    const user = setupUser();
    const writeText = stubClipboard();
    const created = ['k'.repeat(32), 'm'.repeat(32), 'n'.repeat(32)];
    const { requests } = renderRedemptions({ 'POST /api/redemption/': ok(created) });
    await user.click(await screen.findByTestId('redemption-create'));
    const form = await screen.findByTestId('redemption-form');
    const name = within(form).getByLabelText('名称') as HTMLInputElement;
    expect(name.value).toBe('$0.20');

    // The name follows the quota until the admin types one.
    await user.click(button('$10', form));
    expect(name.value).toBe('$10.00');
    const count = within(form).getByLabelText('生成数量') as HTMLInputElement;
    await user.clear(count);
    await fill(user, count, '3');
    await user.click(button('创建', form));

    const keys = await screen.findByTestId('redemption-created-keys');
    for (const key of created) expect(within(keys).getByText(key)).toBeTruthy();
    const create = requests.find((r) => r.method === 'POST' && r.path === '/api/redemption/');
    expect(create?.body).toEqual({ name: '$10.00', quota: 5_000_000, expired_time: 0, count: 3 });

    await user.click(button('复制全部'));
    expect(writeText).toHaveBeenCalledWith(created.join('\n'));
    expect(await screen.findByText('已复制 3 个兑换码')).toBeTruthy();
  });

  it('asks for a selection before copying keys in bulk', async () => {
    const user = setupUser();
    const writeText = stubClipboard();
    renderRedemptions();
    const table = await screen.findByTestId('redemption-table');
    await within(table).findByText('launch');
    await user.click(button('复制所选兑换码'));
    expect(await screen.findByText('请至少选择一个兑换码！')).toBeTruthy();
    expect(writeText).not.toHaveBeenCalled();

    const box = (id: number) =>
      table.querySelector<HTMLInputElement>(`tr[data-row-key="${id}"] input[type="checkbox"]`)!;
    await user.click(box(1));
    await user.click(box(2));
    await user.click(button('复制所选兑换码'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${KEY_A}\n${KEY_B}`));
  });
});
