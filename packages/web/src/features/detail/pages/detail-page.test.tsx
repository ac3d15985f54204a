import { screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { fail, type MockHandler, mockFetch, ok } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import DetailPage from './detail-page';

// antd's table and pickers render slowly in jsdom on a busy machine.
const SLOW = { timeout: 10_000 };
const hourAgo = dayjs().subtract(1, 'hour').startOf('hour').unix();
const ROWS = [
  {
    id: 1,
    user_id: 2,
    username: 'alice',
    model_name: 'gpt-4o',
    created_at: hourAgo,
    count: 3,
    quota: 11_250,
    token_used: 4500,
  },
  {
    id: 2,
    user_id: 2,
    username: 'alice',
    model_name: 'gpt-4o-mini',
    created_at: hourAgo,
    count: 2,
    quota: 450,
    token_used: 3000,
  },
];

function renderDetail(role: number, handlers: Record<string, MockHandler>, status = {}) {
  setStoredUser({ id: 2, username: 'alice', display_name: 'Alice', role, status: 1, group: 'default' });
  const api = mockFetch({
    'GET /api/status': ok(statusFixture({ enable_data_export: true, ...status })),
    'GET /api/log/self/cache_usage': ok([]),
    'GET /api/log/cache_usage': ok([]),
    ...handlers,
  });
  renderPage(<DetailPage />, { path: '/detail' });
  return api;
}

describe('dashboard page', () => {
  it('shows a user their own totals and table from /api/data/self for the last seven days', async () => {
    const { requests } = renderDetail(1, {
      'GET /api/data/self': ok(ROWS),
      'GET /api/log/self/cache_usage': ok([
        { token_name: 'agent', model_name: 'claude-sonnet-4-5', requests: 4, prompt_tokens: 8000, cached_tokens: 6000 },
      ]),
    });
    const totals = await screen.findByTestId('detail-totals', {}, SLOW);
    // 11 250 + 450 = 11 700 quota = $0.0234, shown with the console's rounding
    expect(await within(totals).findByText('$0.02', {}, SLOW)).toBeTruthy();
    expect(within(totals).getByText('5')).toBeTruthy();
    expect(within(totals).getByText('7,500')).toBeTruthy();
    const table = await screen.findByTestId('detail-table', {}, SLOW);
    expect(within(table).getByText('gpt-4o-mini')).toBeTruthy();
    expect(within(table).queryByText('alice')).toBeNull();
    const query = requests.find((request) => request.path === '/api/data/self')!.url.searchParams;
    const span = Number(query.get('end_timestamp')) - Number(query.get('start_timestamp'));
    expect(span).toBeGreaterThan(7 * 86_400 - 3600);
    expect(span).toBeLessThanOrEqual(7 * 86_400 + 3600);
    expect(Number(query.get('start_timestamp')) % 3600).toBe(0);
    // The prompt-cache hit rate of each key and model, over the same range.
    const cache = await screen.findByTestId('cache-hit-table', {}, SLOW);
    expect(await within(cache).findByText('claude-sonnet-4-5', {}, SLOW)).toBeTruthy();
    expect(within(cache).getByText('75%')).toBeTruthy();
    const asked = requests.find((request) => request.path === '/api/log/self/cache_usage')!.url.searchParams;
    expect(asked.get('start_timestamp')).toBe(query.get('start_timestamp'));
  });

  it('lets an admin filter everyone’s data by username', async () => {
    const user = setupUser();
    const { requests } = renderDetail(10, { 'GET /api/data/': ok(ROWS) });
    expect(
      await within(await screen.findByTestId('detail-table', {}, SLOW)).findByText('gpt-4o', {}, SLOW),
    ).toBeTruthy();
    await fill(user, screen.getByLabelText('用户名'), 'alice');
    await user.click(screen.getByRole('button', { name: /搜\s*索/ }));
    await screen.findAllByText('alice', {}, SLOW);
    expect(
      requests
        .filter((request) => request.path === '/api/data/')
        .at(-1)!
        .url.searchParams.get('username'),
    ).toBe('alice');
    // Live node figures are root's: an admin's dashboard never asks for them.
    expect(requests.some((request) => request.path === '/api/metrics/summary')).toBe(false);
    expect(screen.queryByTestId('gateway-figures')).toBeNull();
  });

  it("shows root this node's live figures", async () => {
    const summary = {
      node: 'node-a',
      started_at: 1_700_000_000,
      requests: { success: 18, error: 1, cancelled: 1 },
      retries: 2,
      upstream_errors: 3,
      latency: { p50: 0.42, p95: 1.25 },
      first_token: { p50: null },
      tokens: { prompt: 1200, completion: 300 },
      quota: 500_000,
      memory_rss_bytes: 120 * 1024 * 1024,
    };
    renderDetail(100, { 'GET /api/data/': ok(ROWS), 'GET /api/metrics/summary': ok(summary) });
    const figures = await screen.findByTestId('gateway-figures', {}, SLOW);
    expect(await within(figures).findByText('20', {}, SLOW)).toBeTruthy();
    expect(within(figures).getByText('5.0 %')).toBeTruthy();
    expect(within(figures).getByText('420 ms')).toBeTruthy();
    expect(within(figures).getByText('1250 ms')).toBeTruthy();
    expect(within(figures).getByText('—')).toBeTruthy();
    expect(within(figures).getByText('1,500')).toBeTruthy();
    expect(within(figures).getByText('$1.00')).toBeTruthy();
    expect(within(figures).getByText('120 MiB')).toBeTruthy();
  });

  it('has an empty state', async () => {
    renderDetail(1, { 'GET /api/data/self': ok([]) });
    expect(await screen.findByText('所选时间范围内没有用量数据', {}, SLOW)).toBeTruthy();
  });

  it('shows the server refusal', async () => {
    renderDetail(1, { 'GET /api/data/self': fail('时间格式错误') });
    expect(await screen.findByText('时间格式错误', {}, SLOW)).toBeTruthy();
  });

  it('says when data export is off, without asking for data', async () => {
    const { requests } = renderDetail(1, {}, { enable_data_export: false });
    expect(await screen.findByText('数据看板未开启', {}, SLOW)).toBeTruthy();
    expect(requests.some((request) => request.path.startsWith('/api/data'))).toBe(false);
  });
});
