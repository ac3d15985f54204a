import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { mockFetch, ok, type RecordedRequest } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import type { DrawingItem } from '../types';
import MidjourneyPage from './midjourney-page';

const member = { id: 2, username: 'bob', display_name: 'Bob', role: 1, status: 1, group: 'default' };
const root = { id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' };

function drawing(overrides: Partial<DrawingItem> = {}): DrawingItem {
  return {
    id: 1,
    code: 1,
    user_id: 2,
    action: 'IMAGINE',
    mj_id: '1700000000000001',
    prompt: 'a red fox in snow',
    prompt_en: 'red fox, snow',
    description: '',
    state: '',
    submit_time: 1_700_000_000_000,
    start_time: 1_700_000_001_000,
    finish_time: 1_700_000_030_000,
    image_url: '/mj/image/1700000000000001',
    video_url: null,
    status: 'SUCCESS',
    progress: '100%',
    fail_reason: '',
    quota: 50000,
    created_at: 1_700_000_000,
    ...overrides,
  };
}

function renderDrawings(pages: DrawingItem[][], admin = false) {
  const answer = (request: RecordedRequest) => ok(pages[Number(request.url.searchParams.get('p')) - 1] ?? []);
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/mj/self': answer,
    'GET /api/mj/': answer,
  });
  setStoredUser(admin ? root : member);
  renderPage(<MidjourneyPage />, { path: '/midjourney' });
  return api;
}

afterEach(() => window.localStorage.clear());

describe('drawing log page', () => {
  it('shows a user their drawings with image, tags and progress, without admin columns, over the default window', async () => {
    const { requests } = renderDrawings([
      [
        drawing(),
        drawing({
          id: 2,
          mj_id: '17000002',
          action: 'UPSCALE',
          status: 'FAILURE',
          progress: '0%',
          image_url: '',
          fail_reason: 'x'.repeat(80),
          finish_time: 0,
        }),
      ],
    ]);
    const table = await screen.findByTestId('drawing-table');
    expect((await within(table).findAllByText('a red fox in snow')).length).toBeGreaterThan(0);
    expect(within(table).getByText('绘图')).toBeTruthy();
    expect(within(table).getByText('放大')).toBeTruthy();
    expect(within(table).getAllByTestId('drawing-image')).toHaveLength(1);
    expect(within(table).getByText('30 秒')).toBeTruthy();
    expect(within(table).getByText('无')).toBeTruthy();
    expect(within(table).queryByText('渠道')).toBeNull();
    expect(within(table).queryByText('提交结果')).toBeNull();
    expect(screen.queryByTestId('drawing-notify-banner')).toBeNull();
    expect(within(screen.getByTestId('drawing-filters')).queryByLabelText('渠道 ID')).toBeNull();

    const user = setupUser();
    await user.click(within(table).getByText(`${'x'.repeat(40)}…`));
    expect(await screen.findByText('x'.repeat(80))).toBeTruthy();

    const list = requests.find((request) => request.path === '/api/mj/self')!;
    const start = Number(list.url.searchParams.get('start_timestamp'));
    const end = Number(list.url.searchParams.get('end_timestamp'));
    expect(Math.round((Date.now() - start) / 86_400_000)).toBe(30);
    expect(Math.round((end - Date.now()) / 60_000)).toBe(60);
    expect(requests.some((request) => request.path === '/api/mj/')).toBe(false);
  }, 60_000);

  it('gives admins the channel, submit result and status columns, the channel filter and the callback banner', async () => {
    const { requests } = renderDrawings([[{ ...drawing(), channel_id: 7 }]], true);
    const table = await screen.findByTestId('drawing-table');
    expect(await within(table).findByTestId('task-channel')).toBeTruthy();
    expect(within(table).getByText('已提交')).toBeTruthy();
    expect(within(table).getByText('成功')).toBeTruthy();
    expect(screen.getByTestId('drawing-notify-banner').textContent).toContain('当前未开启Midjourney回调');

    const user = setupUser();
    const filters = screen.getByTestId('drawing-filters');
    await fill(user, within(filters).getByLabelText('渠道 ID'), '7');
    await fill(user, within(filters).getByLabelText('任务 ID'), '1700000000000001');
    await user.click(within(filters).getByText('搜索', { selector: 'button span' }).closest('button')!);
    await waitFor(() =>
      expect(
        requests
          .filter((r) => r.path === '/api/mj/')
          .at(-1)
          ?.url.searchParams.get('channel_id'),
      ).toBe('7'),
    );
    expect(
      requests
        .filter((r) => r.path === '/api/mj/')
        .at(-1)
        ?.url.searchParams.get('mj_id'),
    ).toBe('1700000000000001');
  });

  it('asks for the next page when the user reaches the last loaded one, and shows the empty state', async () => {
    const full = Array.from({ length: 10 }, (_, i) => drawing({ id: i + 1, mj_id: `id-${i + 1}` }));
    const { requests } = renderDrawings([full, [drawing({ id: 11, mj_id: 'id-11' })]]);
    const table = await screen.findByTestId('drawing-table');
    await within(table).findByText('id-1');
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/mj/self').map((r) => r.url.searchParams.get('p'))).toEqual([
        '1',
        '2',
      ]),
    );
    const user = setupUser();
    await user.click(screen.getByTitle('2'));
    expect(await within(table).findByText('id-11')).toBeTruthy();
  });

  it('says when there is nothing to show', async () => {
    renderDrawings([[]]);
    expect(await screen.findByText('当前筛选条件下没有绘图任务')).toBeTruthy();
  });
});
