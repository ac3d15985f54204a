import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import LoginPage from './login-page';

const alice = { id: 7, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' };

function renderLogin(url = '/login', status = statusFixture()) {
  const api = mockFetch({
    'GET /api/status': ok(status),
    'POST /api/user/login': ok(alice),
  });
  const view = renderPage(<LoginPage />, { path: '/login', url });
  return { ...view, ...api };
}

describe('login page', () => {
  it('asks for both fields before calling the server', async () => {
    const user = setupUser();
    const { requests } = renderLogin();
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请输入用户名和密码！')).toBeTruthy();
    expect(requests.some((request) => request.path === '/api/user/login')).toBe(false);
  });

  it('signs in, stores the user and lands on /token', async () => {
    const user = setupUser();
    const { requests } = renderLogin();
    await fill(user, screen.getByLabelText('用户名或邮箱'), 'alice');
    await fill(user, screen.getByLabelText('密码'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: '登录' }));

    expect((await screen.findByTestId('location')).textContent).toBe('/token');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(alice);
    const login = requests.find((request) => request.path === '/api/user/login');
    expect(login?.body).toEqual({ username: 'alice', password: 'secret-pass' });
    expect(login?.url.searchParams.get('turnstile')).toBe('');
    expect(await screen.findByText('登录成功！')).toBeTruthy();
  });

  it('shows the server message when the login is refused, and stays', async () => {
    const user = setupUser();
    mockFetch({
      'GET /api/status': ok(statusFixture()),
      'POST /api/user/login': fail('用户名或密码错误，或用户已被封禁'),
    });
    renderPage(<LoginPage />, { path: '/login' });
    await fill(user, screen.getByLabelText('用户名或邮箱'), 'alice');
    await fill(user, screen.getByLabelText('密码'), 'wrong');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('用户名或密码错误，或用户已被封禁')).toBeTruthy();
    expect(screen.queryByTestId('location')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('warns about the default root password before leaving', async () => {
    const user = setupUser();
    renderLogin();
    await fill(user, screen.getByLabelText('用户名或邮箱'), 'root');
    await fill(user, screen.getByLabelText('密码'), '123456');
    await user.click(screen.getByRole('button', { name: '登录' }));

    expect(await screen.findByText('您正在使用默认密码！请立刻修改默认密码！')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '立即修改' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/personal');
  });

  it('explains an expired session and keeps the invite code', async () => {
    renderLogin('/login?expired=true&aff=AbC1');
    expect(await screen.findByText('未登录或登录已过期，请重新登录')).toBeTruthy();
    expect(window.localStorage.getItem('aff')).toBe('AbC1');
  });

  it('offers registration unless the site is in self-use mode', async () => {
    renderLogin();
    expect(await screen.findByRole('link', { name: '注册' })).toBeTruthy();
  });

  it('hides registration in self-use mode', async () => {
    renderLogin('/login', statusFixture({ self_use_mode_enabled: true }));
    await waitFor(() => expect(screen.queryByRole('link', { name: '注册' })).toBeNull());
    expect(screen.getByRole('link', { name: '忘记密码？' })).toBeTruthy();
  });

  it('shows third-party buttons only for the logins the operator enabled', async () => {
    renderLogin('/login', statusFixture({ github_oauth: true, github_client_id: 'abc' }));
    expect(await screen.findByRole('button', { name: /使用 GitHub 登录/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /使用微信登录/ })).toBeNull();
  });

  it('shows a button for each custom provider the root enabled, after the built-in ones', async () => {
    renderLogin(
      '/login',
      statusFixture({
        github_oauth: true,
        custom_oauth_providers: [
          {
            id: 3,
            name: 'Acme ID',
            slug: 'acme',
            icon: '',
            client_id: 'acme-client',
            authorization_endpoint: 'https://idp.example/authorize',
            scopes: 'openid',
          },
        ],
      }),
    );
    const button = await screen.findByRole('button', { name: /使用 Acme ID 登录/ });
    const buttons = screen.getByTestId('third-party-login').querySelectorAll('button');
    expect(buttons[buttons.length - 1]).toBe(button);
  });

  it('shows no third-party section when none is enabled', async () => {
    renderLogin();
    await waitFor(() => expect(window.localStorage.getItem('status')).not.toBeNull());
    expect(screen.queryByTestId('third-party-login')).toBeNull();
  });

  it('asks for the second step when the account has two-factor sign-in, and stores the user only after it', async () => {
    const user = setupUser();
    const { requests } = mockFetch({
      'GET /api/status': ok(statusFixture()),
      'POST /api/user/login': ok({ require_2fa: true, flow_token: 'flow-1', expires_at: 1_900_000_000 }),
      'POST /api/user/login/2fa': ok(alice),
    });
    renderPage(<LoginPage />, { path: '/login' });
    await fill(user, screen.getByLabelText('用户名或邮箱'), 'alice');
    await fill(user, screen.getByLabelText('密码'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: '登录' }));

    await screen.findByTestId('login-2fa-form');
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(screen.queryByTestId('location')).toBeNull();
    await fill(user, screen.getByTestId('login-2fa-code'), ' 123456 ');
    await user.click(screen.getByRole('button', { name: '验证' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/token');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(alice);
    expect(requests.find((request) => request.path === '/api/user/login/2fa')?.body).toEqual({
      code: '123456',
      flow_token: 'flow-1',
    });
  });
});
