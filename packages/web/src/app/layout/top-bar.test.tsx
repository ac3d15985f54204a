import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../../lib/session';
import { mockFetch, ok } from '../../test/fetch-mock';
import { renderPage, setupUser } from '../../test/render';
import { statusFixture } from '../../test/status-fixture';
import { TopBar } from './top-bar';

const admin = { id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' };

describe('top bar', () => {
  it('switches the language of the visible text and remembers the choice', async () => {
    const user = setupUser();
    mockFetch({ 'GET /api/status': ok(statusFixture()) });
    renderPage(<TopBar onOpenMenu={() => {}} />);
    expect(screen.getByText('首页')).toBeTruthy();
    expect(screen.getByRole('button', { name: '登录' })).toBeTruthy();

    // The switch is labelled: its text names the current language, its tooltip and name say what it does.
    const language = screen.getByRole('button', { name: '切换语言: 简体中文' });
    expect(language.textContent).toContain('简体中文');
    await user.hover(language);
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', '切换语言');
    await user.click(language);
    // Every language is listed by its own name.
    await screen.findByText('日本語');
    const menu = screen.getAllByRole('menu').find((candidate) => candidate.textContent?.includes('日本語'));
    expect([...(menu?.querySelectorAll('[role="menuitem"]') ?? [])].map((item) => item.textContent)).toEqual([
      'English',
      '简体中文',
      '繁體中文',
      '日本語',
      'Français',
      'Русский',
      'Tiếng Việt',
    ]);
    await user.click(await screen.findByText('English'));

    expect(await screen.findByText('Home')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.queryByText('首页')).toBeNull();
    expect(window.localStorage.getItem('i18nextLng')).toBe('en');
    expect(screen.getByRole('button', { name: 'Change language: English' }).textContent).toContain('English');
  });

  it('toggles dark mode and stores it in theme-mode', async () => {
    const user = setupUser();
    mockFetch({ 'GET /api/status': ok(statusFixture()) });
    renderPage(<TopBar onOpenMenu={() => {}} />);
    await user.click(screen.getByRole('button', { name: '切换到深色模式' }));
    expect(window.localStorage.getItem('theme-mode')).toBe('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(screen.getByRole('button', { name: '切换到浅色模式' })).toBeTruthy();
  });

  it('shows the mode badges and hides sign-up in self-use mode', async () => {
    mockFetch({ 'GET /api/status': ok(statusFixture({ self_use_mode_enabled: true, demo_site_enabled: true })) });
    renderPage(<TopBar onOpenMenu={() => {}} />);
    expect(await screen.findByText('自用模式')).toBeTruthy();
    expect(screen.getByText('演示站点')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '注册' })).toBeNull();
  });

  it('shows the balance in dollars by the status quota unit, and logs out', async () => {
    const user = setupUser();
    const { requests } = mockFetch({
      'GET /api/status': ok(statusFixture({ quota_per_unit: 500000, display_in_currency: true })),
      'GET /api/user/self': ok({ ...admin, quota: 1_000_000, used_quota: 0, request_count: 0 }),
      'GET /api/user/logout': ok(),
    });
    setStoredUser(admin);
    renderPage(<TopBar onOpenMenu={() => {}} />, { path: '/token' });

    await user.click(screen.getByRole('button', { name: '用户菜单' }));
    await waitFor(() => expect(screen.getByTestId('user-balance').textContent).toBe('余额：$2.00'));

    await user.click(screen.getByText('退出登录'));
    expect((await screen.findByTestId('location')).textContent).toBe('/login');
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(requests.some((request) => request.path === '/api/user/logout')).toBe(true);
  });

  it('abbreviates the balance when currency display is off', async () => {
    const user = setupUser();
    mockFetch({
      'GET /api/status': ok(statusFixture({ display_in_currency: false })),
      'GET /api/user/self': ok({ ...admin, quota: 1_500_000, used_quota: 0, request_count: 0 }),
    });
    setStoredUser(admin);
    renderPage(<TopBar onOpenMenu={() => {}} />, { path: '/token' });
    await user.click(screen.getByRole('button', { name: '用户菜单' }));
    await waitFor(() => expect(screen.getByTestId('user-balance').textContent).toBe('余额：1.5M'));
  });
});
