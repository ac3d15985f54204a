import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { signIn } from './helpers/session.js';

const PAINTER = { username: 'painter', password: 'painter-password-1' };
// The product polls unfinished tasks every 15 s; give a task two rounds to be picked up.
const POLL_WAIT_MS = 40_000;

/** Clicks the page's refresh button until `ready` finds something (bounded), as a person waiting would. */
async function refreshUntil(page: Page, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + POLL_WAIT_MS;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error('the task did not finish in time');
    await page.waitForTimeout(1500);
    await page.getByRole('button', { name: /刷新|Refresh/ }).click();
  }
}

describe('drawing and task logs: relay submissions seen by their owner (built product)', () => {
  let product: Product;
  let browser: Browser;
  let journey: UpstreamJourney;
  let mock: MockUpstream;
  let key = '';

  const relay = async (path: string, body: unknown) => {
    const response = await fetch(`${product.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { code: unknown; result?: string; data?: unknown; description?: string };
  };

  /** A browser signed in as the painter, optionally in English, dark mode or phone width. */
  const painterSession = async (options: { en?: boolean; dark?: boolean; width?: number } = {}) => {
    const opened = await newPage(browser, product.baseUrl, {
      width: options.width,
      height: options.width ? 812 : undefined,
    });
    if (options.dark) await opened.context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(opened.page, PAINTER);
    if (options.en) await opened.page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
    return opened;
  };

  beforeAll(async () => {
    journey = await startUpstreamJourney();
    ({ product, browser, mock } = journey);
    const { api } = journey;
    await api('PUT', '/api/option/', { key: 'QuotaForNewUser', value: '5000000' });
    await api('POST', '/api/user/', { ...PAINTER, display_name: 'Painter' });
    for (const channel of [
      { type: 2, name: 'mj-proxy', key: 'mj-e2e-secret', models: 'mj_imagine,mj_upscale' },
      { type: 36, name: 'suno', key: 'suno-e2e-key', models: 'suno_music,suno_lyrics' },
    ]) {
      await api('POST', '/api/channel/', {
        mode: 'single',
        channel: { ...channel, base_url: mock.baseUrl, group: 'default' },
      });
    }
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('submits an imagine with the user’s key and shows it on /midjourney, with its picture once drawn', async () => {
    const { context, page } = await painterSession();
    const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').id as number);
    const created = await context.request.post('/api/token/', {
      data: { name: 'drawing key', remain_quota: 2_000_000 },
      headers: { 'new-api-user': String(userId) },
    });
    key = `sk-${((await created.json()) as { data: Array<{ key: string }> }).data[0]!.key}`;

    const submitted = await relay('/mj/submit/imagine', { prompt: 'a lighthouse at dusk, oil painting' });
    expect(submitted.code).toBe(1);
    const failing = await relay('/mj/submit/imagine', { prompt: 'a storm [fail]' });
    expect(failing.code).toBe(1);
    expect(mock.requests.at(-1)!.headers['mj-api-secret']).toBe('mj-e2e-secret');

    await page.getByRole('link', { name: '绘图日志' }).click();
    await page.waitForURL('**/midjourney');
    const table = page.getByTestId('drawing-table');
    await table.getByText(submitted.result!).waitFor();
    await expect(table.getByText('绘图').count()).resolves.toBe(2);
    await snap(page, 'tasks-01-drawing-submitted');

    await refreshUntil(page, async () => (await table.getByTestId('drawing-image').count()) > 0);
    await table.getByTestId('drawing-fail-reason').waitFor();
    const image = table.getByTestId('drawing-image').locator('img').first();
    await expect(image.getAttribute('src')).resolves.toBe(`/mj/image/${submitted.result}`);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="drawing-table"] img');
      return Boolean(img?.complete && img.naturalWidth > 0);
    });
    // Owners do not see the admin-only columns.
    await expect(table.getByRole('columnheader', { name: '提交结果' }).count()).resolves.toBe(0);
    await snap(page, 'tasks-02-drawing-done');

    await image.click();
    await page.locator('.ant-image-preview-img').waitFor();
    await snap(page, 'tasks-03-drawing-preview');
    await context.close();
  });

  it('submits Suno music and shows it on /task, with its full record', async () => {
    const submitted = await relay('/suno/submit/music', { prompt: 'a calm song about the sea', tags: 'ambient' });
    expect(submitted.code).toBe('success');
    const taskId = submitted.data as string;
    expect(mock.requests.at(-1)!.headers.authorization).toBe('Bearer suno-e2e-key');

    const { context, page } = await painterSession();
    await page.getByRole('link', { name: '任务日志' }).click();
    await page.waitForURL('**/task');
    const table = page.getByTestId('task-table');
    await table.getByText(taskId).waitFor();
    await expect(table.getByText('生成音乐').count()).resolves.toBe(1);
    await refreshUntil(page, async () => (await table.getByText('成功').count()) > 0);
    await snap(page, 'tasks-04-task-done');

    await table.getByText(taskId).click();
    const record = page.getByTestId('task-record-json');
    await record.waitFor();
    expect(JSON.parse((await record.textContent()) ?? '{}')).toMatchObject({ task_id: taskId, status: 'SUCCESS' });
    await snap(page, 'tasks-05-task-record');
    await context.close();
  });

  it('reads well in English, dark mode and at 375 px', async () => {
    const { context, page } = await painterSession({ en: true, dark: true, width: 375 });
    await page.goto('/midjourney');
    const drawings = page.getByTestId('drawing-table');
    await drawings.getByTestId('drawing-image').first().waitFor();
    await page.getByText('Drawing log', { exact: true }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snap(page, 'tasks-06-drawing-en-dark-375');
    await page.goto('/task');
    await page.getByTestId('task-table').getByText('Succeeded').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snap(page, 'tasks-07-task-en-dark-375');
    await context.close();

    const wide = await painterSession({ en: true, dark: true });
    await wide.page.goto('/midjourney');
    await wide.page.getByTestId('drawing-table').getByTestId('drawing-image').first().waitFor();
    await snap(wide.page, 'tasks-08-drawing-en-dark');
    await wide.context.close();
  });

  it('shows admins the channel, submit result and status, and the callback banner', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/midjourney');
    const table = page.getByTestId('drawing-table');
    await table.getByRole('columnheader', { name: '提交结果' }).waitFor();
    await table.getByTestId('task-channel').first().waitFor();
    await page.getByTestId('drawing-notify-banner').waitFor();
    await snap(page, 'tasks-09-drawing-admin');
    await context.close();
  });
});
