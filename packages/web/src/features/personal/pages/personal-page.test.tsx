import type { SelfUser } from '@gateway/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getStoredUser, setStoredUser } from '../../../lib/session';
import { fail, type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import PersonalPage from './personal-page';

const SELF: SelfUser = {
  id: 2,
  username: 'alice',
  display_name: 'Alice',
  role: 1,
  status: 1,
  group: 'default',
  email: 'alice@example.com',
  github_id: '',
  oidc_id: '',
  wechat_id: '',
  telegram_id: '',
  linux_do_id: '',
  quota: 1_000_000,
  used_quota: 250_000,
  request_count: 12,
  aff_code: 'AbCd',
  aff_count: 1,
  aff_quota: 0,
  aff_history_quota: 500_000,
  inviter_id: 0,
  setting: null,
  remark: '',
  created_at: 1_700_000_000,
  last_login_at: 1_700_000_000,
};

function button(text: string, scope: HTMLElement = document.body): HTMLElement {
  return within(scope).getByText(text, { selector: 'button span, button' }).closest('button')!;
}

function modalOf(element: HTMLElement): HTMLElement {
  return element.closest<HTMLElement>('.ant-modal')!;
}

function renderPersonal(handlers: Record<string, MockHandler> = {}) {
  setStoredUser({ id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' });
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/user/self': ok(SELF),
    'GET /api/user/models': ok(Array.from({ length: 12 }, (_, i) => `model-${i + 1}`)),
    'GET /api/user/aff': ok('AbCd'),
    'GET /api/user/2fa/status': ok({ enabled: false, locked: false, setup_required: false }),
    ...handlers,
  });
  renderPage(<PersonalPage />, { path: '/personal' });
  return api;
}

describe('personal page', () => {
  it('shows the profile, folds models beyond 10, and checks the password change', async () => {
    const user = setupUser();
    const { requests } = renderPersonal({ 'PUT /api/user/self': ok(undefined, '密码修改成功！') });
    const profile = await screen.findByTestId('personal-profile');
    expect(within(profile).getByText('$2.00')).toBeTruthy();
    expect(await within(profile).findByText('model-10')).toBeTruthy();
    expect(within(profile).queryByText('model-11')).toBeNull();
    await user.click(button('显示全部（还有 2 个）', profile));
    expect(within(profile).getByText('model-12')).toBeTruthy();
    expect((screen.getByLabelText('邀请链接') as HTMLInputElement).value).toBe(
      `${window.location.origin}/register?aff=AbCd`,
    );

    await user.click(screen.getByTestId('personal-password'));
    const form = await screen.findByTestId('personal-password-form');
    const dialog = modalOf(form);
    await user.click(button('确认修改', dialog));
    expect(await within(form).findByText('请输入原密码')).toBeTruthy();

    await fill(user, within(form).getByLabelText('原密码'), 'same-pass1');
    await fill(user, within(form).getByLabelText('新密码'), 'same-pass1');
    await fill(user, within(form).getByLabelText('确认新密码'), 'new-pass12');
    await user.click(button('确认修改', dialog));
    expect(await within(form).findByText('新密码不能与原密码相同')).toBeTruthy();
    expect(await within(form).findByText('两次输入的密码不一致')).toBeTruthy();

    await user.clear(within(form).getByLabelText('新密码'));
    await fill(user, within(form).getByLabelText('新密码'), 'new-pass12');
    await user.click(button('确认修改', dialog));
    await waitFor(() =>
      expect(requests.find((request) => request.method === 'PUT' && request.path === '/api/user/self')?.body).toEqual({
        original_password: 'same-pass1',
        password: 'new-pass12',
      }),
    );
    expect(await screen.findByText('密码修改成功！')).toBeTruthy();
  });

  it('lists only the sign-in providers the operator enabled, and any binding that already exists', async () => {
    renderPersonal({
      'GET /api/status': ok(statusFixture({ github_oauth: true })),
      'GET /api/user/self': ok({ ...SELF, telegram_id: '4242' }),
    });
    const bindings = await screen.findByTestId('personal-bindings');
    const labels = [...bindings.querySelectorAll('.personal-binding')].map(
      (row) => row.querySelector('.ant-typography')?.textContent,
    );
    // GitHub is enabled; Telegram is off but already bound; WeChat, OIDC and LinuxDO are neither.
    expect(labels).toEqual(['邮箱', 'GitHub', 'Telegram']);
  });

  it('deletes the account only after the username is typed, then signs out', async () => {
    const user = setupUser();
    const { requests } = renderPersonal({ 'DELETE /api/user/self': ok(undefined, '账户已删除！') });
    await user.click(await screen.findByTestId('personal-delete'));
    const form = await screen.findByTestId('personal-delete-form');
    const input = within(form).getByLabelText('请输入你的账户名 alice 以确认删除');
    await fill(user, input, 'alicia');
    await user.click(button('确认删除', modalOf(form)));
    expect(await within(form).findByText('请输入你的账户名以确认删除！')).toBeTruthy();
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);

    await user.clear(input);
    await fill(user, input, 'alice');
    await user.click(button('确认删除', modalOf(form)));
    expect((await screen.findByTestId('location')).textContent).toBe('/login');
    expect(getStoredUser()).toBeNull();
  });

  it('accepts only an https webhook', async () => {
    const user = setupUser();
    const { requests } = renderPersonal({ 'PUT /api/user/setting': ok(undefined, '通知设置已更新') });
    const pane = await screen.findByTestId('personal-notify');
    await user.click(within(pane).getByText('Webhook 通知'));
    const url = await within(pane).findByLabelText('Webhook 地址');
    await fill(user, url, 'http://example.com/hook');
    await user.click(button('保存', pane));
    expect(await within(pane).findByText('Webhook 地址必须以 https:// 开头')).toBeTruthy();
    expect(requests.some((request) => request.path === '/api/user/setting')).toBe(false);

    await user.clear(url);
    await fill(user, url, 'https://example.com/hook');
    await user.click(button('$1.00', pane));
    await user.click(button('保存', pane));
    await waitFor(() =>
      expect(requests.find((request) => request.path === '/api/user/setting')?.body).toEqual({
        notify_type: 'webhook',
        quota_warning_threshold: 500000,
        webhook_url: 'https://example.com/hook',
        webhook_secret: '',
        notification_email: '',
        accept_unset_model_ratio_model: false,
      }),
    );
  });

  it('generates a system access token after confirmation, copies it and shows it', async () => {
    const user = setupUser();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPersonal({ 'GET /api/user/token': ok('0123456789abcdef0123456789abcdef') });
    await user.click(await screen.findByTestId('personal-token'));
    const [title] = await screen.findAllByText('重新生成系统访问令牌');
    await user.click(button('生成令牌', modalOf(title!)));
    expect(await screen.findByText('令牌已重置并已复制到剪贴板')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('0123456789abcdef0123456789abcdef');
    expect((screen.getByTestId('personal-token-value') as HTMLInputElement).value).toBe(
      '0123456789abcdef0123456789abcdef',
    );
  });

  it('shows the server refusal when the page cannot load', async () => {
    setStoredUser({ id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' });
    mockFetch({ 'GET /api/status': ok(statusFixture()), 'GET /api/user/self': fail('用户已被封禁') });
    renderPage(<PersonalPage />, { path: '/personal' });
    expect(await screen.findByText('个人信息加载失败')).toBeTruthy();
  });

  it('sets up two-factor sign-in: QR code, key and ten backup codes, on only after the code is accepted', async () => {
    const user = setupUser();
    let enabled = false;
    const codes = Array.from({ length: 10 }, (_, i) => `AAAA-000${i}`);
    const api = renderPersonal({
      'GET /api/user/2fa/status': () =>
        ok(
          enabled
            ? { enabled: true, locked: false, setup_required: false, backup_codes_remaining: 10 }
            : { enabled: false, locked: false, setup_required: true },
        ),
      'POST /api/user/2fa/setup': ok({
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        qr_code_data: 'otpauth://totp/AI%20Gateway:alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        backup_codes: codes,
      }),
      'POST /api/user/2fa/enable': (request) => {
        if ((request.body as { code: string }).code !== '654321') return fail('验证码或备用码错误，请重试');
        enabled = true;
        return ok();
      },
    });
    const card = await screen.findByTestId('two-factor-card');
    await within(card).findByTestId('two-factor-required');
    await user.click(button('开始设置', card));
    await within(card).findByTestId('two-factor-setup');
    expect(within(card).getByTestId('two-factor-secret').textContent).toContain('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(
      within(card)
        .getAllByTestId('two-factor-backup-code')
        .map((code) => code.textContent),
    ).toEqual(codes);

    await fill(user, within(card).getByTestId('two-factor-enable-code'), '111111');
    await user.click(within(card).getByTestId('two-factor-enable'));
    await screen.findByText('验证码或备用码错误，请重试');
    expect(within(card).getByTestId('two-factor-setup')).toBeTruthy();

    await user.clear(within(card).getByTestId('two-factor-enable-code'));
    await fill(user, within(card).getByTestId('two-factor-enable-code'), '654321');
    await user.click(within(card).getByTestId('two-factor-enable'));
    await waitFor(() => expect(within(card).getByTestId('two-factor-state').textContent).toBe('已开启'));
    expect(within(card).queryByTestId('two-factor-setup')).toBeNull();
    expect(within(card).getByTestId('two-factor-remaining').textContent).toBe('剩余备用码：10 个');
    expect(api.requests.filter((request) => request.path === '/api/user/2fa/enable')).toHaveLength(2);
  });
});
