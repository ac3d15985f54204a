import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SORA_KEY, startSoraVideoMock } from '../../server/test/mock-upstream/providers/sora-video.js';
import type { VendorMock } from '../../server/test/mock-upstream/providers/vendor-server.js';
import { VIDEO_FILE } from '../../server/test/mock-upstream/providers/video-mock-kit.js';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { signIn } from './helpers/session.js';
import { type ConsoleTexts, consoleTexts } from './helpers/texts.js';

const DIRECTOR = { username: 'director', password: 'director-password-1' };
// ModelPrice is per second of video: 0.1 × QuotaPerUnit (500000) a second; the journey asks for 8 seconds.
const PRICE_PER_SECOND = 0.1;
const SECONDS = 8;
const EXPECTED_QUOTA = SECONDS * PRICE_PER_SECOND * 500_000;
const PROMPT = 'a paper boat drifting down a rainy street, cinematic';
const FINISH_WAIT_MS = 40_000;

describe('video generation seen in the task log: submitted with the SDK, played and downloaded in the console', () => {
  let journey: Journey;
  let product: Product;
  let browser: Browser;
  let sora: VendorMock;
  let channelId = 0;
  let taskId = '';
  let openai: OpenAI;
  let zh: ConsoleTexts;
  let en: ConsoleTexts;

  /** A browser signed in as the director, optionally in English, dark mode or phone width. */
  const directorSession = async (options: { en?: boolean; dark?: boolean; width?: number } = {}) => {
    const opened = await newPage(browser, product.baseUrl, {
      width: options.width,
      height: options.width ? 812 : undefined,
      locale: options.en ? 'en-US' : 'zh-CN',
    });
    if (options.dark) await opened.context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(opened.page, DIRECTOR);
    if (options.en) await opened.page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    return opened;
  };

  /** The task's row (a table row, or a card on a phone). */
  const taskRow = (page: Page) =>
    page.getByTestId('task-table').locator('tr, .task-card').filter({ hasText: taskId }).first();

  beforeAll(async () => {
    sora = await startSoraVideoMock();
    journey = await startJourney();
    ({ product, browser } = journey);
    const { api } = journey;
    zh = await consoleTexts('zh');
    en = await consoleTexts('en');
    await api('PUT', '/api/option/', { key: 'QuotaForNewUser', value: '5000000' });
    await api('PUT', '/api/option/', { key: 'ModelPrice', value: JSON.stringify({ 'sora-2': PRICE_PER_SECOND }) });
    await api('POST', '/api/user/', { ...DIRECTOR, display_name: 'Director' });
    [channelId] = (await api<number[]>('POST', '/api/channel/', {
      mode: 'single',
      channel: { type: 55, name: 'sora', key: SORA_KEY, base_url: sora.baseUrl, models: 'sora-2', group: 'default' },
    })) as [number];
  });
  afterAll(async () => {
    await journey?.close();
    await sora?.close();
  });

  it('submits a video with the user’s key, sees it finish in the task log, plays it and downloads it', async () => {
    const { context, page } = await directorSession();
    const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
    const created = await context.request.post('/api/token/', {
      data: { name: 'video key', remain_quota: 2_000_000 },
      headers: { 'new-api-user': String(userId) },
    });
    const key = `sk-${((await created.json()) as { data: Array<{ key: string }> }).data[0]!.key}`;
    openai = new OpenAI({ apiKey: key, baseURL: `${product.baseUrl}/v1`, maxRetries: 0 });

    const video = await openai.videos.create({
      model: 'sora-2',
      prompt: PROMPT,
      seconds: String(SECONDS) as '8',
      size: '1280x720',
    });
    expect(video.status).toBe('queued');
    taskId = video.id;

    await page.goto('/task');
    const row = taskRow(page);
    await row.waitFor();
    // The platform is the channel type's name, the action is in words, what was asked and what it cost are shown.
    await row.getByText('OpenAI Sora', { exact: true }).waitFor();
    await row.getByText(zh.t('task.action_text_to_video'), { exact: true }).waitFor();
    await row.getByText(`${zh.t('task.seconds', { value: SECONDS })} · 1280×720`, { exact: true }).waitFor();
    await expect(row.getByTestId('task-cost').getAttribute('title')).resolves.toBe(String(EXPECTED_QUOTA));
    await expect(row.getByTestId('task-cost').textContent()).resolves.toBe('$0.80');
    await expect(row.getByTestId('task-video-play').count()).resolves.toBe(0);
    await snap(page, 'video-01-submitted');

    // A second one the vendor is still rendering: its row shows the progress and nothing to play yet.
    const slow = await openai.videos.create({ model: 'sora-2', prompt: `${PROMPT} [progress]`, size: '720x1280' });
    await expect.poll(async () => (await openai.videos.retrieve(slow.id)).progress, { timeout: 10_000 }).toBe(50);

    // A client's read refreshes the task from the vendor (the mock finishes it on its first poll).
    const done = await openai.videos.retrieve(taskId);
    expect(done.status).toBe('completed');
    await finishInPage(page, row);
    await row.getByText(zh.t('task.status_success'), { exact: true }).waitFor();
    const running = page.getByTestId('task-table').locator('tr').filter({ hasText: slow.id });
    await running.getByText(zh.t('task.status_in_progress'), { exact: true }).waitFor();
    await running.getByText('50%').waitFor();
    await running.getByText(`${zh.t('task.seconds', { value: 4 })} · 720×1280`, { exact: true }).waitFor();
    await expect(running.getByTestId('task-video-play').count()).resolves.toBe(0);
    await snap(page, 'video-02-finished');

    await row.getByRole('button', { name: zh.t('task.video_play_named', { id: taskId }) }).click();
    const dialog = page.getByRole('dialog', { name: zh.t('task.video_title') });
    await dialog.waitFor();
    const player = dialog.getByTestId('task-video-player');
    await expect(player.getAttribute('src')).resolves.toBe(`/v1/videos/${taskId}/content`);
    // The browser really fetched the file through the session (no key): its metadata loaded.
    await page.waitForFunction(() => {
      const element = document.querySelector<HTMLVideoElement>('[data-testid="task-video-player"]');
      return Boolean(element && element.readyState >= 1 && element.duration > 0);
    });
    expect(await player.evaluate((element: HTMLVideoElement) => element.error)).toBeNull();
    await snap(page, 'video-03-player', { fullPage: false });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: zh.t('task.video_download') }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${taskId}.mp4`);
    const saved = readFileSync((await download.path())!);
    expect(saved.equals(VIDEO_FILE)).toBe(true);
    // The footer's close button (the corner ✕ carries the same name).
    await dialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: zh.t('task.video_close') })
      .click();
    await dialog.waitFor({ state: 'hidden' });

    // The row's own download link is the same file.
    const [again] = await Promise.all([page.waitForEvent('download'), row.getByTestId('task-video-download').click()]);
    expect(readFileSync((await again.path())!).equals(VIDEO_FILE)).toBe(true);
    await context.close();
  });

  it('reads well in English, dark mode and at 375 px', async () => {
    const phones: Array<{ dark: boolean; name: string }> = [
      { dark: false, name: 'video-04-en-375' },
      { dark: true, name: 'video-05-en-dark-375' },
    ];
    for (const { dark, name } of phones) {
      const { context, page } = await directorSession({ en: true, dark, width: 375 });
      await page.goto('/task');
      const card = taskRow(page);
      await card.getByText(en.t('task.action_text_to_video'), { exact: true }).waitFor();
      await card.getByText(en.t('task.status_success'), { exact: true }).waitFor();
      await card.getByTestId('task-video-download').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await snap(page, name);
      await card.getByRole('button', { name: en.t('task.video_play_named', { id: taskId }) }).click();
      await waitForPlayer(page);
      await snap(page, `${name}-player`, { fullPage: false });
      await context.close();
    }

    const wide = await directorSession({ en: true, dark: true });
    await wide.page.goto('/task');
    const row = taskRow(wide.page);
    await row.getByText(en.t('task.status_success'), { exact: true }).waitFor();
    await snap(wide.page, 'video-06-en-dark');
    await row.getByRole('button', { name: en.t('task.video_play_named', { id: taskId }) }).click();
    await waitForPlayer(wide.page);
    await snap(wide.page, 'video-07-en-dark-player', { fullPage: false });
    await wide.context.close();
  });

  it('shows the admin the same task with its cost and channel', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/task');
    const row = taskRow(page);
    await row.waitFor();
    await expect(row.getByTestId('task-channel').textContent()).resolves.toBe(String(channelId));
    await expect(row.getByTestId('task-cost').getAttribute('title')).resolves.toBe(String(EXPECTED_QUOTA));
    await row.getByText('OpenAI Sora', { exact: true }).waitFor();
    await row.getByText(zh.t('task.status_success'), { exact: true }).waitFor();
    await snap(page, 'video-08-admin');
    // An admin plays any user's video through the same route.
    await row.getByRole('button', { name: zh.t('task.video_play_named', { id: taskId }) }).click();
    await waitForPlayer(page);
    await context.close();
  });

  it('says a video deleted through the API is gone, in place of the player', async () => {
    await openai.videos.delete(taskId);
    const { context, page } = await directorSession();
    await page.goto('/task');
    const row = taskRow(page);
    await row.getByText(zh.t('task.video_deleted'), { exact: true }).waitFor();
    await expect(row.getByTestId('task-video-play').count()).resolves.toBe(0);
    await snap(page, 'video-09-deleted');
    await context.close();
  });
});

/** Clicks the page's refresh button until the row says it succeeded (bounded), as a person waiting would. */
async function finishInPage(page: Page, row: ReturnType<Page['locator']>): Promise<void> {
  const deadline = Date.now() + FINISH_WAIT_MS;
  while ((await row.getByTestId('task-video-play').count()) === 0) {
    if (Date.now() > deadline) throw new Error('the video task did not finish in the page in time');
    await page.getByRole('button', { name: /刷新|Refresh/ }).click();
    await page.waitForTimeout(500);
  }
}

async function waitForPlayer(page: Page): Promise<void> {
  await page.getByTestId('task-video-player').waitFor();
  await page.waitForFunction(() => {
    const element = document.querySelector<HTMLVideoElement>('[data-testid="task-video-player"]');
    return Boolean(element && element.readyState >= 1);
  });
}
