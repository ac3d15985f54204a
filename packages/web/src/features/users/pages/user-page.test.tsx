import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import type { AdminUser } from '../types';
import UserPage from './user-page';

function user(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 2,
    username: 'alice',
    display_name: 'Alice',
    role: 1,
    status: 1,
    email: '',
    group: 'default',
    quota: 500000,
    used_quota: 250000,
    request_count: 7,
    aff_count: 0,
    aff_quota: 0,
    aff_history_quota: 0,
    inviter_id: 0,
    github_id: '',
    oidc_id: '',
    wechat_id: '',
    telegram_id: '',
    linux_do_id: '',
    remark: '',
    created_at: 1_700_000_000,
    last_login_at: 0,
    deleted_at: null,
    DeletedAt: null,
    ...overrides,
  };
}

/** Buttons by their visible text: role queries walk antd's whole tree and are slow in jsdom. */
function button(text: string, scope: HTMLElement = document.body): HTMLElement {
  return within(scope).getByText(text, { selector: 'button span, button' }).closest('button')!;
}

function renderUsers(handlers: Record<string, MockHandler> = {}, users = [user()]) {
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/user/': ok({ items: users, total: users.length, page: 1, page_size: 10 }),
    'GET /api/group/': ok(['default', 'vip']),
    'GET /api/option/': ok([{ key: 'GroupRatio', value: '{"default":1,"vip":6}' }]),
    ...handlers,
  });
  renderPage(<UserPage />, { path: '/user' });
  return api;
}

async function row(name: string): Promise<HTMLElement> {
  const table = await screen.findByTestId('user-table');
  return (await within(table).findByText(name)).closest('tr')!;
}

describe('user page', () => {
  it('shows a deregistered user with a red tag and no actions, and adopts a manage answer in place', async () => {
    const user_ = setupUser();
    const { requests } = renderUsers({ 'POST /api/user/manage': ok({ status: 2, role: 1, quota: 500000 }) }, [
      user(),
      user({ id: 3, username: 'ghost', DeletedAt: 1_700_000_100, deleted_at: 1_700_000_100 }),
    ]);
    const ghost = await row('ghost');
    expect(within(ghost).getByText('已注销')).toBeTruthy();
    expect(within(ghost).queryAllByRole('button')).toHaveLength(0);

    const alice = await row('alice');
    expect(within(alice).getByText('已激活')).toBeTruthy();
    expect(within(alice).getByText('剩余额度 $1.00')).toBeTruthy();
    expect(within(alice).getByText('无邀请人')).toBeTruthy();
    await user_.click(button('禁用', alice));
    await waitFor(() => expect(within(alice).getByText('已封禁')).toBeTruthy());
    expect(button('启用', alice)).toBeTruthy();
    expect(requests.find((request) => request.path === '/api/user/manage')?.body).toEqual({
      id: 2,
      action: 'disable',
    });
    // Adopted from the answer, not re-read: the list was fetched once.
    expect(requests.filter((request) => request.path === '/api/user/')).toHaveLength(1);
  });

  it('adds a negative quota with the live old + added = new line', async () => {
    const user_ = setupUser();
    const { requests } = renderUsers({ 'POST /api/user/manage': ok({ status: 1, role: 1, quota: 400000 }) });
    const alice = await row('alice');
    await user_.click(within(alice).getByLabelText('添加额度'));
    const dialog = await screen.findByTestId('user-add-quota');
    expect(within(dialog).getByTestId('user-add-quota-formula').textContent).toBe('$1.00 + $0.00 = $1.00');
    await fill(user_, within(dialog).getByLabelText('添加的额度'), '-100000');
    await waitFor(() =>
      expect(within(dialog).getByTestId('user-add-quota-formula').textContent).toBe('$1.00 − $0.20 = $0.80'),
    );
    await user_.click(button('确定', dialog.closest<HTMLElement>('.ant-modal')!));
    await waitFor(() =>
      expect(requests.find((request) => request.path === '/api/user/manage')?.body).toEqual({
        id: 2,
        action: 'add_quota',
        value: -100000,
      }),
    );
    expect(await within(alice).findByText('剩余额度 $0.80')).toBeTruthy();
  });

  it('checks the add-user form before creating', async () => {
    const user_ = setupUser();
    const { requests } = renderUsers({ 'POST /api/user/': ok(undefined, '用户账户创建成功！') });
    await user_.click(await screen.findByTestId('user-create'));
    const form = await screen.findByTestId('user-form');
    await user_.click(button('创建', form));
    await waitFor(() => expect(within(form).getAllByText('用户名和密码不能为空！')).toHaveLength(2));

    await fill(user_, within(form).getByLabelText('用户名'), 'carol');
    await fill(user_, within(form).getByLabelText('密码'), 'short');
    await user_.click(button('创建', form));
    expect(await within(form).findByText('密码长度不得小于 8 位！')).toBeTruthy();
    expect(requests.some((request) => request.method === 'POST' && request.path === '/api/user/')).toBe(false);

    await user_.clear(within(form).getByLabelText('密码'));
    await fill(user_, within(form).getByLabelText('密码'), 'long-enough');
    await user_.click(button('创建', form));
    await waitFor(() =>
      expect(requests.find((request) => request.method === 'POST' && request.path === '/api/user/')?.body).toEqual({
        username: 'carol',
        display_name: '',
        password: 'long-enough',
      }),
    );
  });
});
