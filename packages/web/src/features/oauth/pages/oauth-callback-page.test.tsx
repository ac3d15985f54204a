import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { fail, httpStatus, mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage, setupUser } from '../../../test/render';
import OAuthCallbackPage from './oauth-callback-page';

const alice = { id: 7, username: 'github_7', display_name: 'Alice', role: 1, status: 1, group: 'default' };

function renderCallback(provider: string, search: string) {
  return renderPage(<OAuthCallbackPage />, { path: `/oauth/${provider}`, url: `/oauth/${provider}${search}` });
}

describe('third-party callback page', () => {
  it('hands code and state over once, stores the user and lands on /token', async () => {
    const { requests } = mockFetch({ 'GET /api/oauth/github': ok(alice, '登录成功！') });
    renderCallback('github', '?code=abc&state=xyz');
    expect(screen.getByText('正在处理 GitHub 授权…')).toBeTruthy();
    expect((await screen.findByTestId('location', {}, { timeout: 5000 })).textContent).toBe('/token');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(alice);
    expect(await screen.findByText('登录成功！')).toBeTruthy();
    const calls = requests.filter((request) => request.path === '/api/oauth/github');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.searchParams.get('code')).toBe('abc');
    expect(calls[0]?.url.searchParams.get('state')).toBe('xyz');
  });

  it('after a binding says so and goes to the personal page', async () => {
    setStoredUser(alice);
    mockFetch({ 'GET /api/oauth/oidc': ok(undefined, 'bind') });
    renderCallback('oidc', '?code=abc&state=xyz');
    expect((await screen.findByTestId('location')).textContent).toBe('/personal');
    expect(await screen.findByText('OIDC 账户绑定成功！')).toBeTruthy();
  });

  it('shows the server’s refusal without retrying, and offers the way back to sign in', async () => {
    const user = setupUser();
    const { requests } = mockFetch({ 'GET /api/oauth/linuxdo': fail('state 无效或已过期，请重新发起登录') });
    renderCallback('linuxdo', '?code=abc&state=forged');
    expect((await screen.findByTestId('oauth-callback-error')).textContent).toBe('state 无效或已过期，请重新发起登录');
    expect(screen.getByText('LinuxDO 授权未完成')).toBeTruthy();
    expect(screen.getByText(/秒后自动跳转/)).toBeTruthy();
    expect(requests.filter((request) => request.path === '/api/oauth/linuxdo')).toHaveLength(1);
    expect(window.localStorage.getItem('user')).toBeNull();
    await user.click(screen.getByRole('button', { name: '返回登录' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/login');
  });

  it('retries when the request itself fails, showing the retry, then completes', async () => {
    let calls = 0;
    mockFetch({
      'GET /api/oauth/github': () => {
        calls++;
        return calls === 1 ? httpStatus(502) : ok(alice, '登录成功！');
      },
    });
    renderCallback('github', '?code=abc&state=xyz');
    expect(await screen.findByText('出现错误，第 1 次重试中…')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/token'), { timeout: 6000 });
    expect(calls).toBe(2);
  });

  it('reports a provider that refused before any code was issued, without calling the server', async () => {
    const { requests } = mockFetch({ 'GET /api/status': ok({}) });
    renderCallback('github', '?error=access_denied&error_description=The+user+denied+access&state=xyz');
    expect((await screen.findByTestId('oauth-callback-error')).textContent).toBe(
      '授权方拒绝了请求：The user denied access',
    );
    expect(requests.filter((request) => request.path.startsWith('/api/oauth'))).toHaveLength(0);
  });
});
