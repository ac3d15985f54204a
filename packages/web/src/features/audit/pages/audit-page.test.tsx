import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import type { AuditItem } from '../types';
import AuditPage from './audit-page';

const admin = { id: 2, username: 'ops', display_name: 'Ops', role: 10, status: 1, group: 'default' };

const channelEdit: AuditItem = {
  id: 7,
  created_at: 1_700_000_000,
  actor_id: 2,
  actor_username: 'ops',
  action: 'channel.update',
  target_type: 'channel',
  target_id: '12',
  ip: '10.0.0.9',
  diff: [
    { field: 'name', before: 'old-name', after: 'new-name' },
    { field: 'key', before: '***', after: '***' },
    { field: 'base_url', before: null, after: 'https://example.com' },
  ],
};

function renderAudit(list: MockHandler) {
  const api = mockFetch({ 'GET /api/status': ok(statusFixture()), 'GET /api/audit/': list });
  setStoredUser(admin);
  renderPage(<AuditPage />, { path: '/audit' });
  return api;
}

describe('audit page', () => {
  it('shows a skeleton while loading, then each change as field: before → after with secrets hidden', async () => {
    let answer: (value: unknown) => void = () => {};
    const pending = new Promise((resolve) => {
      answer = resolve;
    });
    const { requests } = renderAudit(async () => {
      await pending;
      return ok({ items: [channelEdit], total: 1, page: 1, page_size: 10 });
    });
    expect(await screen.findByTestId('audit-skeleton')).toBeTruthy();
    answer(null);

    const table = await screen.findByTestId('audit-table');
    expect(await within(table).findByText('编辑渠道')).toBeTruthy();
    const diff = within(table).getByTestId('audit-diff');
    expect(diff.textContent).toBe('nameold-namenew-namekey已隐藏已隐藏base_url（空）https://example.com');
    expect(within(table).getByText('10.0.0.9')).toBeTruthy();
    expect(screen.getByText(/系统设置的修改仅超级管理员可见/)).toBeTruthy();

    const list = requests.find((request) => request.path === '/api/audit/')!;
    expect(list.url.searchParams.get('p')).toBe('1');
    expect(list.url.searchParams.has('action')).toBe(false);
    expect(list.url.searchParams.has('start_timestamp')).toBe(false);
  });

  it('says so when there is nothing yet', async () => {
    renderAudit(ok({ items: [], total: 0, page: 1, page_size: 10 }));
    expect(await screen.findByText('还没有审计记录')).toBeTruthy();
  });
});
