import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fail, type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import type { Token } from '../types';
import TokenPage from './token-page';

const KEY = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghWxYz';

function token(overrides: Partial<Token> = {}): Token {
  return {
    id: 1,
    user_id: 1,
    key: KEY,
    status: 1,
    name: 'prod',
    created_time: 1_700_000_000,
    accessed_time: 0,
    expired_time: -1,
    remain_quota: 500000,
    unlimited_quota: false,
    model_limits_enabled: false,
    model_limits: '',
    allow_ips: '',
    used_quota: 250000,
    group: '',
    ...overrides,
  };
}

/** Buttons by their visible text: role queries walk antd's whole tree and are slow in jsdom. */
function button(text: string, scope: HTMLElement = document.body): HTMLElement {
  const label = within(scope).getByText(text, { selector: 'button span, button' });
  return label.closest('button')!;
}

function renderTokens(handlers: Record<string, MockHandler> = {}, tokens = [token()]) {
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/token/': ok({ items: tokens, total: tokens.length, page: 1, page_size: 10 }),
    'GET /api/user/self/groups': ok({ default: { desc: '默认分组', ratio: 1 } }),
    'GET /api/user/models': ok(['gpt-4o']),
    ...handlers,
  });
  renderPage(<TokenPage />, { path: '/token' });
  return api;
}

describe('token page', () => {
  it('lists tokens with sk- keys and copies the full key', async () => {
    const user = setupUser();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderTokens();
    const table = await screen.findByTestId('token-table');
    expect(await within(table).findByText('prod')).toBeTruthy();
    expect(within(table).getByText('sk-AbCd…WxYz')).toBeTruthy();
    expect(within(table).getByText('剩余 $1.00')).toBeTruthy();
    expect(within(table).getByText('永不过期')).toBeTruthy();
    await user.click(within(table).getByLabelText('复制密钥'));
    expect(writeText).toHaveBeenCalledWith(`sk-${KEY}`);
  });

  it('checks the form, then creates a batch in one request with count', async () => {
    const user = setupUser();
    const { requests } = renderTokens({
      'POST /api/token/': ok(Array.from({ length: 20 }, (_, i) => ({ name: `ci-${i}`, key: `k${i}` }))),
    });
    await user.click(await screen.findByTestId('token-create'));
    const form = await screen.findByTestId('token-form');
    await user.click(button('创建', form));
    expect(await screen.findByText('请输入令牌名称')).toBeTruthy();

    await fill(user, within(form).getByLabelText('名称'), 'ci');
    await fill(user, within(form).getByLabelText('IP 白名单'), '10.0.0.1\nnot-an-ip');
    await user.click(button('创建', form));
    expect(await screen.findByText('IP 白名单格式错误：每行一个 IP 或 CIDR')).toBeTruthy();

    await user.clear(within(form).getByLabelText('IP 白名单'));
    await fill(user, within(form).getByLabelText('IP 白名单'), '10.0.0.0/8');
    await user.click(button('20', form));
    await user.click(button('$10', form));
    await user.click(button('创建', form));

    expect(await screen.findByText('已创建 20 个令牌')).toBeTruthy();
    const create = requests.find((request) => request.method === 'POST' && request.path === '/api/token/');
    expect(create?.body).toEqual({
      name: 'ci',
      remain_quota: 5_000_000,
      expired_time: -1,
      unlimited_quota: false,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '10.0.0.0/8',
      group: '',
      // No fallback models of its own (the group's apply): sent empty, so a cleared list clears the stored one.
      fallback_models: '',
      count: 20,
      // No limits and no budget: sent as such, so an emptied field clears the stored value.
      rpm_limit: null,
      tpm_limit: null,
      concurrency_limit: null,
      budget_period: '',
      budget_quota: 0,
    });
  });

  it('shows the server refusal when enabling an expired token', async () => {
    const user = setupUser();
    const { requests } = renderTokens(
      { 'PUT /api/token/': fail('令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期') },
      [token({ status: 3, expired_time: 1_600_000_000 })],
    );
    await user.click(await screen.findByLabelText('启用令牌'));
    expect(await screen.findByText('令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期')).toBeTruthy();
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.url.searchParams.get('status_only')).toBe('true');
    expect(put?.body).toEqual({ id: 1, status: 1 });
  });

  it('asks for a selection before bulk actions, then deletes the selected tokens', async () => {
    const user = setupUser();
    const { requests } = renderTokens({ 'POST /api/token/batch': ok(1) });
    await screen.findByText('prod');
    await user.click(button('删除所选令牌'));
    expect(await screen.findByText('请至少选择一个令牌！')).toBeTruthy();
    expect(requests.some((request) => request.path === '/api/token/batch')).toBe(false);

    const table = screen.getByTestId('token-table');
    await user.click(table.querySelectorAll<HTMLInputElement>('tbody input[type="checkbox"]')[0]!);
    await user.click(button('删除所选令牌'));
    const [title] = await screen.findAllByText('确定删除所选的 1 个令牌吗？此操作不可撤销。');
    const dialog = title!.closest<HTMLElement>('.ant-modal')!;
    await user.click(button('删除', dialog));
    await waitFor(() =>
      expect(requests.find((request) => request.path === '/api/token/batch')?.body).toEqual({ ids: [1] }),
    );
  });
});
