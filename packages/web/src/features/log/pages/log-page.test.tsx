import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { durationColor, firstTokenColor } from '../log-view';
import type { LogItem } from '../types';
import LogPage from './log-page';

const member = { id: 2, username: 'bob', display_name: 'Bob', role: 1, status: 1, group: 'default' };
const root = { id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' };

function log(overrides: Partial<LogItem> = {}, other: Record<string, unknown> = {}): LogItem {
  return {
    id: 1,
    created_at: 1_700_000_000,
    type: 2,
    content: '模型倍率 2.5，补全倍率 4，分组倍率 1',
    username: 'bob',
    user_id: 2,
    token_name: 'prod-key',
    token_id: 3,
    model_name: 'gpt-4o',
    quota: 250000,
    prompt_tokens: 120,
    completion_tokens: 80,
    use_time: 3,
    is_stream: 1,
    group: 'default',
    ip: '',
    request_id: 'req-1',
    other: JSON.stringify({
      model_ratio: 2.5,
      completion_ratio: 4,
      group_ratio: 1,
      model_price: -1,
      frt: 850,
      ...other,
    }),
    ...overrides,
  };
}

function renderLogs(items: LogItem[], handlers: Record<string, MockHandler> = {}) {
  const page = ok({ items, total: items.length, page: 1, page_size: 10 });
  const stat = ok({ quota: 1_250_000, rpm: 7, tpm: 1234 });
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/log/self/': page,
    'GET /api/log/self/stat': stat,
    'GET /api/log/': page,
    'GET /api/log/stat': stat,
    ...handlers,
  });
  renderPage(<LogPage />, { path: '/log' });
  return api;
}

/** The tag's preset colour, read from antd's class (`ant-tag-green` and the like). */
function tagColor(element: HTMLElement): string | undefined {
  return [...element.classList].find((name) => /^ant-tag-(green|orange|red)$/.test(name))?.slice('ant-tag-'.length);
}

describe('usage log page', () => {
  it('colours durations and first-token times by the spec thresholds', () => {
    expect([0, 101, 102, 300, 301].map(durationColor)).toEqual(['green', 'green', 'orange', 'orange', 'red']);
    expect([0, 3000, 3001, 10_000, 10_001].map(firstTokenColor)).toEqual(['green', 'green', 'orange', 'orange', 'red']);
  });

  it('shows a user their own logs with the stat bar, and no admin columns or filters', async () => {
    setStoredUser(member);
    const { requests } = renderLogs([log()]);
    const table = await screen.findByTestId('log-table');
    expect(await within(table).findByText('prod-key')).toBeTruthy();
    expect(within(table).getByText('$0.50')).toBeTruthy();
    expect(within(table).getByText('消费')).toBeTruthy();
    expect(within(table).queryByText('渠道')).toBeNull();
    expect(within(table).queryByText('用户')).toBeNull();
    expect(within(table).queryByText('重试')).toBeNull();

    const stats = screen.getByTestId('log-stats');
    await waitFor(() => expect(within(stats).getByTestId('log-stat-quota').textContent).toContain('$2.50'));
    expect(within(stats).getByTestId('log-stat-rpm').textContent).toContain('7');
    expect(within(stats).getByTestId('log-stat-tpm').textContent).toContain('1234');

    const filters = screen.getByTestId('log-filters');
    expect(within(filters).getByLabelText('令牌名称')).toBeTruthy();
    expect(within(filters).queryByLabelText('用户名')).toBeNull();
    expect(within(filters).queryByLabelText('渠道 ID')).toBeNull();

    const list = requests.find((request) => request.path === '/api/log/self/')!;
    expect(list.url.searchParams.get('p')).toBe('1');
    expect(list.url.searchParams.get('page_size')).toBe('10');
    const start = Number(list.url.searchParams.get('start_timestamp'));
    const end = Number(list.url.searchParams.get('end_timestamp'));
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    expect(start).toBe(midnight.getTime() / 1000);
    expect(end - Date.now() / 1000).toBeGreaterThan(3500);
    expect(list.url.searchParams.has('type')).toBe(false);
    expect(requests.some((request) => request.path === '/api/log/')).toBe(false);
  });

  it('colours duration and first-token tags, and shows a mapped model with its upstream name', async () => {
    setStoredUser(member);
    renderLogs([
      log({ id: 1, use_time: 101 }, { frt: 2500 }),
      log({ id: 2, use_time: 250 }, { frt: 9000 }),
      log(
        { id: 3, use_time: 301, is_stream: 0 },
        { frt: 15_000, is_model_mapped: true, upstream_model_name: 'gpt-4o-2024-08-06' },
      ),
      log({ id: 4, use_time: 0 }),
    ]);
    const table = await screen.findByTestId('log-table');
    await within(table).findAllByTestId('log-duration');
    expect(within(table).getAllByTestId('log-duration').map(tagColor)).toEqual(['green', 'orange', 'red', 'green']);
    expect(within(table).getAllByTestId('log-frt').map(tagColor)).toEqual(['green', 'orange', 'red', 'green']);
    expect(within(table).getAllByTestId('log-frt')[0]!.textContent).toBe('首字 2.5 s');
    expect(within(table).getByText('首字 850 ms')).toBeTruthy();
    const mapped = within(table).getByTestId('log-model-mapped');
    expect(mapped.textContent).toBe('gpt-4o→ gpt-4o-2024-08-06');
    expect(within(table).getAllByText('流')).toHaveLength(3);
    expect(within(table).getByText('非流')).toBeTruthy();
  });

  it('renders the other JSON readably in the details, including an error log', async () => {
    const user = setupUser();
    setStoredUser(member);
    renderLogs([
      log(
        { id: 1 },
        { cache_tokens: 64, cache_ratio: 0.5, local_count: true, stream_status: 'client_gone', web_search: 2 },
      ),
      log(
        { id: 2, type: 5, content: 'upstream timed out', quota: 0, prompt_tokens: 0, completion_tokens: 0 },
        { status_code: 504, error_code: 'upstream_timeout', frt: -1 },
      ),
    ]);
    const table = await screen.findByTestId('log-table');
    const toggles = await within(table).findAllByText('详情', { selector: 'button span, button' });
    await user.click(toggles[0]!.closest('button')!);
    const details = await screen.findByTestId('log-details');
    expect(within(details).getByText('模型倍率')).toBeTruthy();
    expect(within(details).getByText('2.5')).toBeTruthy();
    expect(within(details).getByText('补全倍率')).toBeTruthy();
    expect(within(details).getByText('64（缓存倍率 0.5）')).toBeTruthy();
    expect(within(details).getByText('850 ms')).toBeTruthy();
    expect(within(details).getByText('上游未返回用量，本次按本地计数计费')).toBeTruthy();
    expect(within(details).getByText('流式响应异常结束：client_gone')).toBeTruthy();
    expect(within(details).getByText('web_search')).toBeTruthy();

    // The first row's toggle now reads 收起, so the only 详情 left is the error row's.
    await user.click(within(table).getByText('详情', { selector: 'button span, button' }).closest('button')!);
    await waitFor(() => expect(screen.getAllByTestId('log-details')).toHaveLength(2));
    const errorDetails = screen.getAllByTestId('log-details')[1]!;
    expect(within(errorDetails).getByText('upstream timed out')).toBeTruthy();
    expect(within(errorDetails).getByText('504')).toBeTruthy();
    expect(within(errorDetails).getByText('upstream_timeout')).toBeTruthy();
    expect(within(table).getByText('错误')).toBeTruthy();
  });

  it('names the fallback facts and a relay error’s stored words in words, never as raw keys', async () => {
    const user = setupUser();
    setStoredUser(member);
    renderLogs([
      log(
        { id: 3, type: 5, content: 'Le service en amont est injoignable', quota: 0 },
        {
          status_code: 502,
          error_code: 'upstream_unreachable',
          message_code: 'relay_upstream_unavailable',
          message_params: {},
          requested_model: 'gpt-4o',
          fallback_chain: ['gpt-4o', 'gpt-4o-mini', 'claude-haiku'],
        },
      ),
    ]);
    const table = await screen.findByTestId('log-table');
    await user.click(within(table).getByText('详情', { selector: 'button span, button' }).closest('button')!);
    const details = await screen.findByTestId('log-details');
    expect(within(details).getByText('请求的模型')).toBeTruthy();
    expect(within(details).getByText('依次尝试的模型（回退）')).toBeTruthy();
    expect(within(details).getByText('gpt-4o → gpt-4o-mini → claude-haiku')).toBeTruthy();
    // The server rendered the content in the reader's language already: shown as it came.
    expect(within(details).getByText('Le service en amont est injoignable')).toBeTruthy();
    for (const raw of ['requested_model', 'fallback_chain', 'message_code', 'message_params']) {
      expect(within(details).queryByText(raw)).toBeNull();
    }
  });

  it('gives admins the channel, user and retry columns, their filters, and the user detail', async () => {
    const user = setupUser();
    setStoredUser(root);
    const { requests } = renderLogs(
      [{ ...log({}, { admin_info: { use_channel: ['3', '5'] } }), channel: 5, channel_name: 'openai-backup' }],
      {
        'GET /api/user/2': ok({
          id: 2,
          username: 'bob',
          display_name: 'Bobby',
          role: 1,
          status: 1,
          group: 'vip',
          quota: 5_000_000,
          used_quota: 500000,
          request_count: 42,
          email: 'bob@example.com',
        }),
      },
    );
    const table = await screen.findByTestId('log-table');
    expect(await within(table).findByText('openai-backup')).toBeTruthy();
    expect(within(table).getByText('重试：3→5')).toBeTruthy();

    const filters = screen.getByTestId('log-filters');
    await fill(user, within(filters).getByLabelText('用户名'), 'bob');
    await fill(user, within(filters).getByLabelText('渠道 ID'), '5');
    await fill(user, within(filters).getByLabelText('模型名称'), 'gpt-4o');
    await user.click(within(filters).getByText('搜索', { selector: 'button span' }).closest('button')!);
    await waitFor(() =>
      expect(
        requests
          .filter((request) => request.path === '/api/log/')
          .at(-1)
          ?.url.searchParams.get('username'),
      ).toBe('bob'),
    );
    const last = requests.filter((request) => request.path === '/api/log/').at(-1)!;
    expect(last.url.searchParams.get('channel')).toBe('5');
    expect(last.url.searchParams.get('model_name')).toBe('gpt-4o');
    const stat = requests.filter((request) => request.path === '/api/log/stat').at(-1)!;
    expect(stat.url.searchParams.get('username')).toBe('bob');
    expect(requests.some((request) => request.path.startsWith('/api/log/self'))).toBe(false);

    await user.click(within(table).getByLabelText('查看用户 bob'));
    const detail = await screen.findByTestId('log-user-detail');
    expect(await within(detail).findByText('bob@example.com')).toBeTruthy();
    expect(within(detail).getByText('Bobby')).toBeTruthy();
    expect(within(detail).getByText('$10.00')).toBeTruthy();
    expect(within(detail).getByText('42')).toBeTruthy();
  });

  it('filters by type and shows the empty state', async () => {
    const user = setupUser();
    setStoredUser(member);
    const { requests } = renderLogs([]);
    expect(await screen.findByText('当前筛选条件下没有日志')).toBeTruthy();
    const filters = screen.getByTestId('log-filters');
    await user.click(within(filters).getByLabelText('类型'));
    await user.click(await screen.findByText('错误', { selector: '.ant-select-item-option-content' }));
    await user.click(within(filters).getByText('搜索', { selector: 'button span' }).closest('button')!);
    await waitFor(() =>
      expect(
        requests
          .filter((request) => request.path === '/api/log/self/')
          .at(-1)
          ?.url.searchParams.get('type'),
      ).toBe('5'),
    );
    expect(
      requests
        .filter((request) => request.path === '/api/log/self/stat')
        .at(-1)
        ?.url.searchParams.get('type'),
    ).toBe('5');
  });
});
