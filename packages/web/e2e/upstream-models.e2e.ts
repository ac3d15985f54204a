import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelListUpstream, startModelListUpstream } from '../../server/test/mock-upstream/model-list.js';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

// The upstream model watch in the console: a channel whose upstream starts offering a model is noticed (a tag on
// the channel list, the list in its "upstream models" dialog), root adds it with a click, and once auto-sync is on
// the next new model joins the channel by itself.
describe('the upstream model watch (built product, SQLite)', () => {
  let journey: Journey;
  let product: Product;
  let browser: Browser;
  let api: AdminApi;
  let upstream: ModelListUpstream;
  let channelId: number;

  const modelsOf = async () => (await api<{ models: string }>('GET', `/api/channel/${channelId}`)).models;

  beforeAll(async () => {
    upstream = await startModelListUpstream('sk-watched', ['watch-a']);
    journey = await startJourney();
    ({ product, browser, api } = journey);
    // The fake upstream listens on 127.0.0.1: fetching from private addresses is root's explicit choice.
    await api('PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
    await api('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        name: 'watched',
        type: 1,
        key: 'sk-watched',
        base_url: upstream.baseUrl,
        models: 'watch-a',
        group: 'default',
      },
    });
    const list = await api<{ items: Array<{ id: number; name: string }> }>('GET', '/api/channel/?p=1&page_size=10');
    channelId = list.items.find((channel) => channel.name === 'watched')!.id;
  }, 90_000);
  afterAll(async () => {
    await journey?.close();
    await upstream?.close();
  });

  it('notices a new upstream model, adds it on a click, then adds the next one by itself', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/channel');
    const row = page.locator('tr', { hasText: 'watched' });
    await row.getByRole('button', { name: '更多操作' }).click();
    await page.getByRole('menuitem', { name: '上游模型' }).click();
    const dialog = page.getByTestId('upstream-models-modal');
    await dialog.getByText('尚未检查').waitFor();
    await dialog.getByTestId('upstream-watch-switch').click();

    upstream.models.push('watch-b');
    await dialog.getByTestId('upstream-check-now').click();
    const detected = dialog.getByTestId('upstream-detected');
    await detected.getByText('watch-b').waitFor();
    await expect.poll(() => row.getByTestId('upstream-changes').textContent()).toContain('1');
    await snap(page, 'upstream-models-01-detected', { fullPage: false });

    await detected.getByRole('checkbox', { name: 'watch-b' }).check();
    await detected.getByRole('button', { name: '加入渠道' }).click();
    await dialog.getByText('自上次检查以来没有变化').waitFor();
    expect(await modelsOf()).toBe('watch-a,watch-b');
    await expect.poll(() => row.getByTestId('upstream-changes').count()).toBe(0);

    // Auto-sync: the next model the upstream offers joins the channel at the next check, without a click.
    await dialog.getByRole('switch').nth(1).click();
    upstream.models.push('watch-c');
    await dialog.getByTestId('upstream-check-now').click();
    await expect.poll(modelsOf).toBe('watch-a,watch-b,watch-c');
    await dialog.getByText('自上次检查以来没有变化').waitFor();
    await snap(page, 'upstream-models-02-auto-sync', { fullPage: false });
    await context.close();
  });
});
