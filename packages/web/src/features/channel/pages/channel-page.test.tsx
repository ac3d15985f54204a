import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { buildChannelRows, latencyColor } from '../channel-view';
import type { Channel } from '../types';
import ChannelPage from './channel-page';

function channel(overrides: Partial<Channel>): Channel {
  return {
    id: 1,
    name: 'c',
    type: 1,
    key: '',
    openai_organization: null,
    test_model: null,
    status: 1,
    weight: 0,
    created_time: 1_700_000_000,
    test_time: 1_700_000_100,
    response_time: 500,
    base_url: null,
    other: null,
    balance: 0,
    balance_updated_time: 0,
    models: 'gpt-4o',
    group: 'default',
    used_quota: 0,
    model_mapping: null,
    status_code_mapping: null,
    priority: 0,
    auto_ban: 1,
    other_info: null,
    tag: null,
    setting: null,
    param_override: null,
    header_override: null,
    remark: null,
    max_input_tokens: 0,
    ...overrides,
  };
}

function renderChannels(items: Channel[], total = items.length) {
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/group/': ok(['default']),
    'GET /api/channel/': ok({ items, total, page: 1, page_size: 10 }),
  });
  renderPage(<ChannelPage />, { path: '/channel' });
  return api;
}

describe('channel list', () => {
  it('colours response times by the spec thresholds', () => {
    expect([0, 1000, 1001, 3000, 3001, 5000, 5001, 60_000].map(latencyColor)).toEqual([
      'green',
      'green',
      'lime',
      'lime',
      'yellow',
      'yellow',
      'red',
      'red',
    ]);
  });

  it('shows latency tags, and the reason and time of an automatic disable', async () => {
    const user = setupUser();
    const statusTime = 1_700_000_000;
    renderChannels([
      channel({ id: 1, name: 'fast', response_time: 800 }),
      channel({ id: 2, name: 'slow', response_time: 7200 }),
      channel({
        id: 3,
        name: 'broken',
        status: 3,
        test_time: 0,
        response_time: 0,
        other_info: JSON.stringify({ status_reason: 'invalid api key', status_time: statusTime }),
      }),
    ]);
    const table = await screen.findByTestId('channel-table');
    // Batch actions wait for a selection instead of inviting a click that can only complain.
    for (const label of ['删除所选渠道', '设置标签']) {
      expect(screen.getByText(label, { selector: 'button span' }).closest('button')!.disabled).toBe(true);
    }
    const fast = await within(table).findByLabelText('测试渠道 fast');
    expect(fast.dataset.latency).toBe('green');
    expect(fast.className).toContain('green');
    expect(fast.textContent).toBe('0.80 秒');
    expect(within(table).getByLabelText('测试渠道 slow').dataset.latency).toBe('red');
    expect(within(table).getByLabelText('测试渠道 broken').textContent).toBe('未测试');

    await user.hover(within(table).getByText('自动禁用'));
    const detail = await screen.findByTestId('auto-disabled-detail');
    expect(detail.textContent).toContain('原因：invalid api key');
    expect(detail.textContent).toMatch(/时间：2023-11-1[45] \d\d:13:20/);
  });

  // A failed test is stored by the server (other_info), so a reload still shows it failed, why and when.
  const failedTest = (id: number, name: string) =>
    channel({
      id,
      name,
      response_time: 0,
      test_time: 1_700_000_000,
      other_info: JSON.stringify({
        status_reason: 'kept for the status tag',
        test_failure_reason: 'HTTP 401: Incorrect API key provided: ***',
        test_failure_time: 1_700_000_000,
      }),
    });

  it('shows a stored test failure with its reason and time after a reload', async () => {
    const user = setupUser();
    renderChannels([failedTest(4, 'revoked'), channel({ id: 5, name: 'never', test_time: 0, response_time: 0 })]);
    const table = await screen.findByTestId('channel-table');
    const failed = await within(table).findByLabelText('测试渠道 revoked');
    expect(failed.dataset.latency).toBe('failed');
    expect(failed.textContent).toBe('测试失败');
    expect(within(table).getByLabelText('测试渠道 never').dataset.latency).toBe('none');

    await user.hover(failed);
    const detail = await screen.findByTestId('test-failure-detail');
    expect(detail.textContent).toContain('原因：HTTP 401: Incorrect API key provided: ***');
    expect(detail.textContent).toMatch(/失败时间：2023-11-1[45] \d\d:13:20/);
  });

  it('shows a stored test failure on a phone card too', async () => {
    const user = setupUser();
    const wide = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...wide(query),
      matches: query.includes('max-width'),
    })) as typeof window.matchMedia;
    try {
      renderChannels([failedTest(6, 'phone-revoked')]);
      const [card] = await screen.findAllByTestId('channel-card');
      const failed = within(card!).getByLabelText('测试渠道 phone-revoked');
      expect(failed.dataset.latency).toBe('failed');
      await user.hover(failed);
      expect((await screen.findByTestId('test-failure-detail')).textContent).toContain(
        'Incorrect API key provided: ***',
      );
    } finally {
      window.matchMedia = wide;
    }
  });

  it('folds tagged channels under one expandable tag row in tag mode', async () => {
    window.localStorage.setItem('tag-mode', 'true');
    const { requests } = renderChannels(
      [
        channel({ id: 1, name: 'claude-a', tag: 'anthropic', type: 14, priority: 3 }),
        channel({ id: 2, name: 'solo', tag: null }),
        channel({ id: 3, name: 'claude-b', tag: 'anthropic', type: 14, status: 2, priority: 3 }),
      ],
      2,
    );
    const table = await screen.findByTestId('channel-table');
    expect(await within(table).findByText('anthropic')).toBeTruthy();
    expect(within(table).getByText('2 个渠道')).toBeTruthy();
    expect(within(table).getByText('已启用 1/2')).toBeTruthy();
    expect(within(table).getByText('solo')).toBeTruthy();
    expect(within(table).queryByText('claude-a')).toBeNull();
    const list = requests.find((request) => request.path === '/api/channel/');
    expect(list?.url.searchParams.get('tag_mode')).toBe('true');

    fireEvent.click(table.querySelector('button.ant-table-row-expand-icon-collapsed')!);
    expect(await within(table).findByText('claude-a')).toBeTruthy();
    expect(within(table).getByText('claude-b')).toBeTruthy();
  });

  it('groups rows by first appearance of their tag', () => {
    const rows = buildChannelRows(
      [
        channel({ id: 1, tag: 'x' }),
        channel({ id: 2, tag: '' }),
        channel({ id: 3, tag: 'y' }),
        channel({ id: 4, tag: 'x' }),
      ],
      true,
    );
    expect(rows.map((row) => (row.kind === 'tag' ? `${row.tag}:${row.channels.length}` : row.channel.id))).toEqual([
      'x:2',
      2,
      'y:1',
    ]);
  });

  it('shows a card per channel on a phone, with its test, status and actions', async () => {
    const user = setupUser();
    const wide = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...wide(query),
      matches: query.includes('max-width'),
    })) as typeof window.matchMedia;
    try {
      renderChannels([channel({ id: 7, name: 'phone-one' }), channel({ id: 8, name: 'phone-two', status: 2 })]);
      const cards = await screen.findAllByTestId('channel-card');
      expect(cards).toHaveLength(2);
      expect(within(cards[0]!).getByText('phone-one')).toBeTruthy();
      expect(within(cards[0]!).getByLabelText('测试渠道 phone-one')).toBeTruthy();
      expect(screen.queryByRole('table')).toBeNull();
      // Selecting a card feeds the batch bar like the table's checkbox does.
      await user.click(within(cards[1]!).getByRole('checkbox'));
      expect(screen.getByText('删除所选渠道', { selector: 'button span' }).closest('button')!.disabled).toBe(false);
    } finally {
      window.matchMedia = wide;
    }
  });
});
