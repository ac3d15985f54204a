import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../../lib/session';
import { mockFetch, ok } from '../../test/fetch-mock';
import { renderPage } from '../../test/render';
import { statusFixture } from '../../test/status-fixture';
import { Sidebar } from './sidebar';
import { buildSidebarGroups, isSidebarHiddenOn, selectedSidebarKey } from './sidebar-items';

const noFlags = { dataExport: false, drawing: false, task: false };
const paths = (groups: ReturnType<typeof buildSidebarGroups>) =>
  groups.flatMap((group) => group.entries.map((entry) => entry.path));

describe('sidebar rules', () => {
  it('gives an ordinary user the console and personal groups only', () => {
    const groups = buildSidebarGroups(1, noFlags);
    expect(groups.map((group) => group.key)).toEqual(['console', 'personal']);
    expect(paths(groups)).toEqual(['/token', '/playground', '/log', '/topup', '/personal']);
  });

  it('adds the admin group for admins, system settings for root only', () => {
    const groups = buildSidebarGroups(10, noFlags);
    expect(groups.map((group) => group.key)).toEqual(['console', 'admin', 'personal']);
    expect(paths(groups)).toContain('/channel');
    expect(paths(groups)).toContain('/redemption');
    // Subscription plans sit right after redemption codes, as both are what users buy credit with.
    expect(paths(groups).indexOf('/subscription')).toBe(paths(groups).indexOf('/redemption') + 1);
    expect(paths(groups)).toContain('/user');
    expect(paths(groups)).not.toContain('/setting');
    expect(paths(buildSidebarGroups(100, noFlags))).toContain('/setting');
  });

  it('shows dashboard, drawing and task logs only when their flags are on', () => {
    expect(paths(buildSidebarGroups(1, { dataExport: true, drawing: false, task: false }))).toContain('/detail');
    const drawing = paths(buildSidebarGroups(1, { dataExport: false, drawing: true, task: false }));
    expect(drawing).toContain('/midjourney');
    expect(drawing).not.toContain('/task');
    expect(paths(buildSidebarGroups(1, { dataExport: false, drawing: false, task: true }))).toContain('/task');
  });

  it('is hidden on home, chat and setup', () => {
    expect(isSidebarHiddenOn('/')).toBe(true);
    expect(isSidebarHiddenOn('/setup')).toBe(true);
    expect(isSidebarHiddenOn('/chat/2')).toBe(true);
    expect(isSidebarHiddenOn('/token')).toBe(false);
    expect(isSidebarHiddenOn('/channel/edit/3')).toBe(false);
  });

  it('highlights the entry a sub-page belongs to', () => {
    expect(selectedSidebarKey('/channel/edit/3', buildSidebarGroups(10, noFlags))).toBe('/channel');
  });
});

describe('sidebar component', () => {
  function renderSidebar(role: number) {
    mockFetch({ 'GET /api/status': ok(statusFixture()) });
    setStoredUser({ id: 1, username: 'u', display_name: '', role, status: 1, group: 'default' });
    renderPage(<Sidebar />, { path: '/token' });
    return screen.getByTestId('sidebar-menu');
  }

  it('hides admin entries from an ordinary user', () => {
    const menu = renderSidebar(1);
    expect(within(menu).getByText('令牌管理')).toBeTruthy();
    expect(within(menu).queryByText('渠道管理')).toBeNull();
    expect(within(menu).queryByText('兑换码管理')).toBeNull();
    expect(within(menu).queryByText('用户管理')).toBeNull();
  });

  it('shows admin entries to an admin, system settings to root only', () => {
    const menu = renderSidebar(10);
    expect(within(menu).getByText('渠道管理')).toBeTruthy();
    expect(within(menu).queryByText('系统设置')).toBeNull();
  });

  it('reads the drawing flag from localStorage', () => {
    window.localStorage.setItem('enable_drawing', 'true');
    const menu = renderSidebar(1);
    expect(within(menu).getByText('绘图日志')).toBeTruthy();
    expect(within(menu).queryByText('任务日志')).toBeNull();
    expect(within(menu).queryByText('数据看板')).toBeNull();
  });
});
