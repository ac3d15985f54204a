import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES } from '@gateway/shared';
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

/** A finished Sora (channel type 55) text-to-video task of 8 s at 1280x720, charged 8 × 0.1 × 500000. */
function videoTask(overrides: Partial<TaskItem> = {}): TaskItem {
  const taskId = 'task_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
  return task({
    id: 7,
    task_id: taskId,
    platform: '55',
    action: 'textGenerate',
    quota: 400_000,
    properties: null,
    data: null,
    video: {
      seconds: 8,
      size: '1280x720',
      resolution: null,
      aspect_ratio: null,
      content_url: `/v1/videos/${taskId}/content`,
      deleted: false,
    },
    ...overrides,
  });
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
    // A Suno-only page keeps its width: no video columns, but the cost of each task.
    expect(within(table).queryByRole('columnheader', { name: '结果' })).toBeNull();
    expect(within(table).getByRole('columnheader', { name: '花费' })).toBeTruthy();

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

  it('shows a video task by its channel type, action, length, size and cost, with a player and a download', async () => {
    const video = videoTask();
    renderTasks([video, task()]);
    const table = await screen.findByTestId('task-table');
    expect(await within(table).findByText('OpenAI Sora')).toBeTruthy();
    expect(within(table).queryByText('55')).toBeNull();
    expect(within(table).getByText('文生视频')).toBeTruthy();
    expect(within(table).getByText('8 秒 · 1280×720')).toBeTruthy();
    // Cost in the operator's unit (dollars here): 400000 / 500000 per dollar.
    const costs = within(table).getAllByTestId('task-cost');
    expect(costs[0]!.textContent).toBe('$0.80');
    expect(costs[0]!.getAttribute('title')).toBe('400000');
    // The Suno row keeps its words and has no player.
    expect(within(table).getByText('生成音乐')).toBeTruthy();
    expect(within(table).getAllByTestId('task-video-play')).toHaveLength(1);

    const download = within(table).getByTestId('task-video-download');
    expect(download.tagName).toBe('A');
    expect(download.getAttribute('href')).toBe(video.video!.content_url);
    expect(download.hasAttribute('download')).toBe(true);

    const user = setupUser();
    await user.click(within(table).getByRole('button', { name: `播放任务 ${video.task_id} 的视频` }));
    const player = (await screen.findByTestId('task-video-player')) as HTMLVideoElement;
    expect(player.getAttribute('src')).toBe(video.video!.content_url);
    expect(player.hasAttribute('controls')).toBe(true);
    expect(player.getAttribute('preload')).toBe('metadata');
    const modalDownload = screen.getByTestId('task-video-modal-download');
    expect(modalDownload.getAttribute('href')).toBe(video.video!.content_url);
    expect(modalDownload.hasAttribute('download')).toBe(true);
    expect(screen.getByText('花费：$0.80')).toBeTruthy();
  });

  it('names each video action and platform in words', async () => {
    renderTasks([
      videoTask({ id: 11, task_id: 'v-11', platform: '50', action: 'generate' }),
      videoTask({ id: 12, task_id: 'v-12', platform: '51', action: 'firstTailGenerate' }),
      videoTask({ id: 13, task_id: 'v-13', platform: '52', action: 'referenceGenerate' }),
      videoTask({ id: 14, task_id: 'v-14', platform: '999', action: 'remix' }),
    ]);
    const table = await screen.findByTestId('task-table');
    for (const text of ['图生视频', '首尾帧视频', '参考生视频', 'Kling', 'remix', '999']) {
      expect(await within(table).findByText(text)).toBeTruthy();
    }
  });

  it('says a deleted video is deleted instead of offering it, and shows nothing to play before it finishes', async () => {
    const base = videoTask().video!;
    renderTasks([
      videoTask({ video: { ...base, content_url: null, deleted: true } }),
      videoTask({
        id: 8,
        task_id: 'running-8',
        status: 'IN_PROGRESS',
        progress: '40%',
        finish_time: 0,
        video: { ...base, seconds: null, size: null, resolution: '720p', aspect_ratio: '16:9', content_url: null },
      }),
    ]);
    const table = await screen.findByTestId('task-table');
    expect(await within(table).findByText('视频已删除')).toBeTruthy();
    expect(within(table).getByText('720p · 16:9')).toBeTruthy();
    expect(within(table).queryByTestId('task-video-play')).toBeNull();
    expect(within(table).queryByTestId('task-video-download')).toBeNull();
  });

  it('shows a video on a phone card with its facts, player and download', async () => {
    const video = videoTask();
    const wide = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...wide(query),
      matches: query.includes('max-width'),
    })) as typeof window.matchMedia;
    try {
      renderTasks([video]);
      const cards = await screen.findByTestId('task-table');
      expect(cards.tagName).not.toBe('TABLE');
      expect(await within(cards).findByText('OpenAI Sora')).toBeTruthy();
      expect(within(cards).getByText('8 秒 · 1280×720')).toBeTruthy();
      expect(within(cards).getByTestId('task-cost').textContent).toBe('$0.80');
      expect(within(cards).getByTestId('task-video-download').getAttribute('href')).toBe(video.video!.content_url);
      expect(within(cards).getByTestId('task-video-play')).toBeTruthy();
    } finally {
      window.matchMedia = wide;
    }
  });

  it('has the video texts in every language', () => {
    const keys = [
      'action_text_to_video',
      'action_image_to_video',
      'action_first_last_frame',
      'action_reference_video',
      'col_video',
      'col_cost',
      'col_result',
      'video_deleted',
      'video_play_named',
      'video_download',
      'video_title',
      'video_close',
      'video_unsupported',
      'video_cost',
    ];
    for (const lang of LANGUAGES) {
      const texts = JSON.parse(
        readFileSync(join(import.meta.dirname, '../../../locales', lang, 'task.json'), 'utf8'),
      ) as Record<string, string>;
      for (const key of keys) expect(texts[key], `${lang} task.${key}`).toBeTruthy();
    }
  });

  it('says when there is nothing to show', async () => {
    renderTasks([]);
    expect(await screen.findByText('当前筛选条件下没有任务')).toBeTruthy();
  });
});
