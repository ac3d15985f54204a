import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TURNSTILE_SCRIPT_URL } from '../../../components/account/turnstile-script';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import LoginPage from '../pages/login-page';

const cloudflareScripts = () =>
  Array.from(document.querySelectorAll('script')).filter((script) => script.src === TURNSTILE_SCRIPT_URL);

describe('the Turnstile widget on the login page', () => {
  afterEach(() => {
    for (const script of cloudflareScripts()) script.remove();
    delete window.turnstile;
  });

  it('loads nothing from Cloudflare while the check is off', async () => {
    mockFetch({ 'GET /api/status': ok(statusFixture()) });
    renderPage(<LoginPage />, { path: '/login' });
    await screen.findByRole('button', { name: '登录' });
    expect(cloudflareScripts()).toHaveLength(0);
    expect(screen.queryByTestId('turnstile')).toBeNull();
  });

  it('when on, renders the widget and sends its token with the sign-in', async () => {
    // Cloudflare's script, already on the page: the widget renders at once and "solves" when clicked.
    window.turnstile = {
      render(container, params) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'verify';
        button.onclick = () => params.callback('token-from-widget');
        container.appendChild(button);
        expect(params.sitekey).toBe('site-key');
        return 'w0';
      },
      reset() {},
      remove() {},
    };
    const user = setupUser();
    const { requests } = mockFetch({
      'GET /api/status': ok(statusFixture({ turnstile_check: true, turnstile_site_key: 'site-key' })),
      'POST /api/user/login': ok({ id: 7, username: 'alice', display_name: '', role: 1, status: 1, group: 'default' }),
    });
    renderPage(<LoginPage />, { path: '/login' });
    await fill(user, await screen.findByLabelText('用户名或邮箱'), 'alice');
    await fill(user, screen.getByLabelText('密码'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect(await screen.findByText('请稍后几秒重试，Turnstile 正在检查用户环境！')).toBeTruthy();
    expect(requests.some((request) => request.path === '/api/user/login')).toBe(false);

    await user.click(await screen.findByRole('button', { name: 'verify' }));
    await user.click(screen.getByRole('button', { name: '登录' }));
    expect((await screen.findByTestId('location', {}, { timeout: 5000 })).textContent).toBe('/token');
    const login = requests.find((request) => request.path === '/api/user/login');
    expect(login?.url.searchParams.get('turnstile')).toBe('token-from-widget');
  });
});
