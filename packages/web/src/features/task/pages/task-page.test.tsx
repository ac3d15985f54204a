import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { progressPercent } from '../../../components/list/record-view';
import { setStoredUser } from '../../../lib/session';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import type { TaskItem } from '../types';
import TaskPage from './task-page';

const member = { id: 2, username: 'bob', display_name: 'Bob', role: 1, status: 1, group: 'default' };
const root = { id: 1, username: 'root', display_name: 'Root', role: 100, status: 1, group: 'default' };

function task(overrides: Partial<TaskItem> = {}): TaskItem {
  return {
    id: 1,
    created_at: 1_700_000_000,
    updated_at: 1_700_000_060,
    task_id: '3f1c2a9e-aaaa-bbbb-cccc-000000000001',
    platform: 'suno',
    user_id: 2,
    group: 'default',
    quota: 50000,
    action: 'MUSIC',
    status: 'SUCCESS',
    fail_reason: '',
    submit_time: 1_700_000_000,
    start_time: 1_700_000_001,
    finish_time: 1_700_000_045,
    progress: '100%',
    properties: { input: 'a song about rain' },
    data: [{ id: 'clip-1', audio_url: 'https://cdn.example/clip-1.mp3' }],
    ...overrides,
  };
}

function renderTasks(items: TaskItem[], admin = false) {
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/task/self': ok(items),
    'GET /api/task/': ok(items),
  });
  setStoredUser(admin ? root : member);
  renderPage(<TaskPage />, { path: '/task' });
  return api;
}

describe('task log page', () => {
  it('reads progress as a number when it is one', () => {
    expect(['45%', '100', ' 7 % ', 'done', ''].map(progressPercent)).toEqual([45, 100, 7, null, null]);
  });

  it('shows a user their tasks (platform, type, status, duration) from the start of today, and the record as JSON', async () => {
    const { requests } = renderTasks([
      task(),
      task({
        id: 2,
        task_id: 'lyrics-2',
        action: 'LYRICS',
        status: 'FAILURE',
        fail_reason: 'content policy',
        progress: 'queued',
      }),
    ]);
    const table = await screen.findByTestId('task-table');
    expect(await within(table).findByText('生成音乐')).toBeTruthy();
    expect(within(table).getByText('生成歌词')).toBeTruthy();
    expect(within(table).getAllByText('Suno')).toHaveLength(2);
    expect(within(table).getAllByText('45 秒')).toHaveLength(2);
    expect(within(table).getByText('queued')).toBeTruthy();
    expect(within(table).getByText('content policy')).toBeTruthy();
    expect(within(table).queryByText('渠道')).toBeNull();

    const list = requests.find((request) => request.path === '/api/task/self')!;
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    expect(Number(list.url.searchParams.get('start_timestamp'))).toBe(midnight.getTime() / 1000);

    const user = setupUser();
    await user.click(within(table).getByText('lyrics-2'));
    const json = await screen.findByTestId('task-record-json');
    expect(JSON.parse(json.textContent!)).toMatchObject({ task_id: 'lyrics-2', fail_reason: 'content policy' });
  });

  it('gives admins the channel column and filter', async () => {
    const { requests } = renderTasks([{ ...task(), channel_id: 9 }], true);
    const table = await screen.findByTestId('task-table');
    expect(await within(table).findByTestId('task-channel')).toBeTruthy();
    expect(within(screen.getByTestId('task-filters')).getByLabelText('渠道 ID')).toBeTruthy();
    await waitFor(() => expect(requests.some((request) => request.path === '/api/task/')).toBe(true));
    expect(requests.some((request) => request.path === '/api/task/self')).toBe(false);
  });

  it('says when there is nothing to show', async () => {
    renderTasks([]);
    expect(await screen.findByText('当前筛选条件下没有任务')).toBeTruthy();
  });
});
