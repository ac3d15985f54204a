import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import ResetConfirmPage from './reset-confirm-page';
import ResetPage from './reset-page';

describe('password reset pages', () => {
  it('asks for a link, confirms it was sent and locks the button for 30 seconds', async () => {
    const user = setupUser();
    const { requests } = mockFetch({
      'GET /api/status': ok(statusFixture()),
      'GET /api/reset_password': ok(undefined, '如果该邮箱已注册，重置邮件已发送，请检查你的邮箱！'),
    });
    renderPage(<ResetPage />, { path: '/reset' });
    await user.click(await screen.findByRole('button', { name: '发送重置邮件' }));
    expect(await screen.findByText('请输入邮箱地址')).toBeTruthy();
    await fill(user, screen.getByLabelText('邮箱'), 'gina@example.com');
    await user.click(screen.getByRole('button', { name: '发送重置邮件' }));
    expect(await screen.findByTestId('reset-sent')).toBeTruthy();
    // Counting down from 30 once a second: a loaded machine may read it a second later.
    const locked = screen.getByRole('button', { name: /重试 \((30|29|28)\)/ });
    expect(locked.hasAttribute('disabled')).toBe(true);
    expect(requests.filter((request) => request.path === '/api/reset_password')).toHaveLength(1);
  });

  it('waits for the human check when the operator turned it on', async () => {
    const user = setupUser();
    const { requests } = mockFetch({
      'GET /api/status': ok(statusFixture({ turnstile_check: true, turnstile_site_key: 'site-key' })),
    });
    renderPage(<ResetPage />, { path: '/reset' });
    await fill(user, await screen.findByLabelText('邮箱'), 'gina@example.com');
    await user.click(screen.getByRole('button', { name: '发送重置邮件' }));
    expect(await screen.findByText('请稍后几秒重试，Turnstile 正在检查用户环境！')).toBeTruthy();
    expect(requests.some((request) => request.path === '/api/reset_password')).toBe(false);
  });

  it('spends the link once and shows the new password', async () => {
    const user = setupUser();
    const { requests } = mockFetch({
      'GET /api/status': ok(statusFixture()),
      'POST /api/user/reset': ok('NewPass12345'),
    });
    renderPage(<ResetConfirmPage />, { path: '/user/reset', url: '/user/reset?email=gina%40example.com&token=abc' });
    await user.click(await screen.findByRole('button', { name: /确认重置密码/ }));
    const field = (await screen.findByLabelText('新密码')) as HTMLInputElement;
    expect(field.value).toBe('NewPass12345');
    expect(requests.find((request) => request.path === '/api/user/reset')?.body).toEqual({
      email: 'gina@example.com',
      token: 'abc',
    });
  });

  it('explains a link without its token', async () => {
    mockFetch({ 'GET /api/status': ok(statusFixture()) });
    renderPage(<ResetConfirmPage />, { path: '/user/reset', url: '/user/reset?email=gina%40example.com' });
    expect(await screen.findByText('重置链接非法或已过期')).toBeTruthy();
  });
});
