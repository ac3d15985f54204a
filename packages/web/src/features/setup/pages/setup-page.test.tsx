import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import SetupPage from './setup-page';

function renderSetup(
  state: Record<string, unknown> = { status: false, root_init: false, database_type: 'sqlite' },
  submit: MockHandler = ok(undefined, '系统初始化完成'),
) {
  const api = mockFetch({ 'GET /api/setup': ok(state), 'POST /api/setup': submit });
  renderPage(<SetupPage />, { path: '/setup' });
  return api;
}

const submitButton = () => screen.getByRole('button', { name: /初始化系统/ });

describe('setup page', () => {
  it('requires a password of at least 8 characters', async () => {
    const user = setupUser();
    const { requests } = renderSetup();
    await fill(user, await screen.findByLabelText('管理员用户名'), 'admin');
    await fill(user, screen.getByLabelText('密码'), 'short');
    await fill(user, screen.getByLabelText('确认密码'), 'short');
    await user.click(submitButton());
    expect(await screen.findByText('密码长度不得小于 8 位！')).toBeTruthy();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('requires the two passwords to match', async () => {
    const user = setupUser();
    renderSetup();
    await fill(user, await screen.findByLabelText('管理员用户名'), 'admin');
    await fill(user, screen.getByLabelText('密码'), 'long-enough-1');
    await fill(user, screen.getByLabelText('确认密码'), 'long-enough-2');
    await user.click(submitButton());
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
  });

  it('requires the admin username', async () => {
    const user = setupUser();
    renderSetup();
    await user.click(await screen.findByRole('button', { name: /初始化系统/ }));
    expect(await screen.findByText('请输入管理员用户名')).toBeTruthy();
  });

  it('hides the account fields when the admin exists and sends only the mode', async () => {
    const user = setupUser();
    const { requests } = renderSetup({ status: false, root_init: true, database_type: 'postgres' });
    expect(await screen.findByTestId('root-exists')).toBeTruthy();
    expect(screen.queryByLabelText('管理员用户名')).toBeNull();
    expect(screen.queryByLabelText('确认密码')).toBeNull();
    expect(screen.queryByTestId('sqlite-warning')).toBeNull();

    await user.click(screen.getByRole('radio', { name: /自用模式/ }));
    await user.click(submitButton());
    await waitFor(() => expect(requests.some((request) => request.method === 'POST')).toBe(true));
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      username: '',
      password: '',
      confirmPassword: '',
      SelfUseModeEnabled: true,
      DemoSiteEnabled: false,
    });
    expect(await screen.findByText('系统初始化完成')).toBeTruthy();
  });

  it('warns about SQLite and submits a new admin with the default mode', async () => {
    const user = setupUser();
    const { requests } = renderSetup();
    expect(await screen.findByTestId('sqlite-warning')).toBeTruthy();
    expect(screen.queryByLabelText('设置令牌')).toBeNull();
    await fill(user, screen.getByLabelText('管理员用户名'), 'admin');
    await fill(user, screen.getByLabelText('密码'), 'long-enough');
    await fill(user, screen.getByLabelText('确认密码'), 'long-enough');
    await user.click(submitButton());
    await waitFor(() => expect(requests.some((request) => request.method === 'POST')).toBe(true));
    expect(requests.find((request) => request.method === 'POST')?.body).toEqual({
      username: 'admin',
      password: 'long-enough',
      confirmPassword: 'long-enough',
      SelfUseModeEnabled: false,
      DemoSiteEnabled: false,
    });
  });

  it('asks for the setup token the server printed when it needs one, and sends it', async () => {
    const user = setupUser();
    const { requests } = renderSetup({
      status: false,
      root_init: false,
      database_type: 'sqlite',
      setup_token_required: true,
    });
    await fill(user, await screen.findByLabelText('管理员用户名'), 'admin');
    await fill(user, screen.getByLabelText('密码'), 'long-enough');
    await fill(user, screen.getByLabelText('确认密码'), 'long-enough');
    await user.click(submitButton());
    expect(await screen.findByText('请输入设置令牌')).toBeTruthy();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
    await fill(user, screen.getByLabelText('设置令牌'), '  printed-token-123  ');
    await user.click(submitButton());
    await waitFor(() => expect(requests.some((request) => request.method === 'POST')).toBe(true));
    expect(requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      username: 'admin',
      setup_token: 'printed-token-123',
    });
  });

  it('says initialisation failed on a network error and lets the operator retry', async () => {
    const user = setupUser();
    renderSetup({ status: false, root_init: true, database_type: 'mysql' }, () => {
      throw new TypeError('Failed to fetch');
    });
    await user.click(await screen.findByRole('button', { name: /初始化系统/ }));
    expect(await screen.findByText('系统初始化失败，请重试')).toBeTruthy();
    await waitFor(() => expect(submitButton().hasAttribute('disabled')).toBe(false));
  });

  it('explains the usage modes in a dialog', async () => {
    const user = setupUser();
    renderSetup();
    await user.click(await screen.findByRole('button', { name: '模式说明' }));
    expect(await screen.findByText('使用模式说明')).toBeTruthy();
  });

  it('goes home when setup is already done', async () => {
    renderSetup({ status: true, root_init: true, database_type: 'sqlite' });
    expect((await screen.findByTestId('location')).textContent).toBe('/');
  });
});
