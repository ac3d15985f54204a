import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import RegisterPage from './register-page';

function renderRegister(url = '/register', status = statusFixture(), register = ok(undefined, '注册成功！')) {
  const api = mockFetch({
    'GET /api/status': ok(status),
    'POST /api/user/register': register,
    'GET /api/verification': ok(undefined, '验证码发送成功，请检查你的邮箱！'),
  });
  renderPage(<RegisterPage />, { path: '/register', url });
  return api;
}

async function fillAccount(user: ReturnType<typeof setupUser>, password2 = 'alice-pass-1') {
  await fill(user, await screen.findByLabelText('用户名'), 'alice');
  await fill(user, screen.getByLabelText('密码'), 'alice-pass-1');
  await fill(user, screen.getByLabelText('确认密码'), password2);
}

describe('register page', () => {
  it('says the passwords differ before calling the server', async () => {
    const user = setupUser();
    const { requests } = renderRegister();
    await fillAccount(user, 'other-pass-1');
    await user.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeTruthy();
    expect(requests.some((request) => request.path === '/api/user/register')).toBe(false);
  });

  it('registers with the invite code from the link and goes to sign in', async () => {
    const user = setupUser();
    const { requests } = renderRegister('/register?aff=Ab12');
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: '注册' }));
    expect((await screen.findByTestId('location', {}, { timeout: 5000 })).textContent).toBe('/login');
    const sent = requests.find((request) => request.path === '/api/user/register');
    expect(sent?.body).toMatchObject({ username: 'alice', password: 'alice-pass-1', aff_code: 'Ab12' });
    expect(window.localStorage.getItem('aff')).toBe('Ab12');
  });

  it('with e-mail verification, sends a code and then waits 30 seconds before offering another', async () => {
    const user = setupUser();
    const { requests } = renderRegister('/register', statusFixture({ email_verification: true }));
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('请输入邮箱地址')).toBeTruthy();
    await fill(user, screen.getByLabelText('邮箱'), 'alice@example.com');
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    // The countdown starts at 30 and ticks every second: a loaded machine may first see it a second or two later.
    const resend = await screen.findByRole('button', { name: /重新发送 \(\d+\)/ });
    const left = Number(/\((\d+)\)/.exec(resend.textContent ?? '')?.[1]);
    expect(left).toBeLessThanOrEqual(30);
    expect(left).toBeGreaterThanOrEqual(25);
    expect(resend.hasAttribute('disabled')).toBe(true);
    expect(requests.find((request) => request.path === '/api/verification')?.url.searchParams.get('email')).toBe(
      'alice@example.com',
    );
    await fill(user, screen.getByLabelText('验证码'), '123456');
    await user.click(screen.getByRole('button', { name: '注册' }));
    await waitFor(() =>
      expect(requests.find((request) => request.path === '/api/user/register')?.body).toMatchObject({
        email: 'alice@example.com',
        verification_code: '123456',
      }),
    );
  });

  it('shows the server’s refusal and stays', async () => {
    const user = setupUser();
    renderRegister('/register', statusFixture(), fail('用户名已存在，或已注销'));
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: '注册' }));
    expect(await screen.findByText('用户名已存在，或已注销')).toBeTruthy();
    expect(screen.queryByTestId('location')).toBeNull();
  });

  it('says registration is closed when the operator closed it', async () => {
    renderRegister('/register', statusFixture({ register_enabled: false }));
    expect(await screen.findByText('管理员关闭了新用户注册')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '注册' })).toBeNull();
  });
});
