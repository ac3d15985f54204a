import type { PasskeyStatusView } from '@gateway/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setStoredUser } from '../../lib/session';
import { type MockHandler, mockFetch, ok } from '../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../test/render';
import { statusFixture } from '../../test/status-fixture';
import { PasskeysCard } from './passkeys-card';

const LISTED: PasskeyStatusView = {
  enabled: true,
  last_used_at: '2026-01-02T03:04:00.000Z',
  passkeys: [
    {
      id: 7,
      name: 'Work laptop',
      created_at: '2026-01-01T00:00:00.000Z',
      last_used_at: '2026-01-02T03:04:00.000Z',
      backup_state: true,
      attachment: 'platform',
    },
    { id: 8, name: '', created_at: null, last_used_at: null, backup_state: false, attachment: '' },
  ],
};

function renderCard(enabled: boolean, handlers: Record<string, MockHandler> = {}) {
  setStoredUser({ id: 2, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' });
  const api = mockFetch({ 'GET /api/user/passkey': ok(LISTED), ...handlers });
  renderPage(<PasskeysCard status={statusFixture({ passkey_login: enabled })} />);
  return api;
}

describe('passkeys card', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists every passkey with its name and last use, renames one and deletes another', async () => {
    // jsdom has no WebAuthn; the card only asks whether the browser has it.
    vi.stubGlobal('PublicKeyCredential', () => undefined);
    const user = setupUser();
    const api = renderCard(true, {
      'PUT /api/user/passkey/7': ok(undefined, 'Passkey 已重命名'),
      'DELETE /api/user/passkey/8': ok(undefined, 'Passkey 已解绑'),
    });
    const items = await screen.findAllByTestId('passkey-item');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Work laptop')).toBeTruthy();
    expect(within(items[0]!).getByText('已同步')).toBeTruthy();
    expect(within(items[0]!).getByText(/上次使用/)).toBeTruthy();
    expect(within(items[1]!).getByText('未命名的 Passkey')).toBeTruthy();
    expect(within(items[1]!).getByText(/从未使用/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /添加 Passkey/ })).toBeTruthy();

    await user.click(within(items[0]!).getByRole('button', { name: '重命名' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('名称') as HTMLInputElement;
    expect(name.value).toBe('Work laptop');
    await user.clear(name);
    await fill(user, name, 'Home desktop');
    await user.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(api.requests.find((r) => r.method === 'PUT')!.body).toEqual({ name: 'Home desktop' });

    await user.click(within(items[1]!).getByRole('button', { name: '删除' }));
    const popover = (await screen.findByText(/删除 Passkey“未命名的 Passkey”/)).closest<HTMLElement>('.ant-popover')!;
    await user.click(within(popover).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'DELETE')).toBe(true));
  });

  it('offers no adding while the operator has passkeys off, and says so', async () => {
    vi.stubGlobal('PublicKeyCredential', () => undefined);
    renderCard(false, { 'GET /api/user/passkey': ok({ enabled: false, last_used_at: null, passkeys: [] }) });
    expect(await screen.findByText('还没有 Passkey')).toBeTruthy();
    expect(screen.getByText('管理员未启用 Passkey。')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /添加 Passkey/ })).toBeNull();
  });
});
