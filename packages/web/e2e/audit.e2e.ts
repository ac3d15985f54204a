import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

/** Polls until the locator's text holds every piece: the table fills in after the request returns. */
async function expectTextIn(page: Page, testId: string, pieces: string[]): Promise<string> {
  const list = page.getByTestId(testId);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = (await list.textContent()) ?? '';
    if (pieces.every((piece) => text.includes(piece))) return text;
    if (Date.now() > deadline) {
      for (const piece of pieces) expect(text).toContain(piece);
    }
    await page.waitForTimeout(100);
  }
}

describe('an admin changes settings and a channel, then reads who did what on the audit page (built product)', () => {
  let product: Product;
  let browser: Browser;
  let journey: Journey;
  let api: AdminApi;

  beforeAll(async () => {
    journey = await startJourney({ privateConsole: true });
    ({ product, browser, api } = journey);
  });
  afterAll(async () => journey?.close());

  it('shows the change with its field diff, secrets hidden, filters by action, in Chinese and English', async () => {
    // Arranged through the admin's own session: a channel renamed with a new key, and a failed sign-in.
    const [channelId] = await api<number[]>('POST', '/api/channel/', {
      type: 1,
      name: 'audit-e2e',
      key: 'sk-e2e-secret-1',
      models: 'gpt-4o',
      group: 'default',
    });
    const channel = await api<Record<string, unknown>>('GET', `/api/channel/${channelId}`);
    await api('PUT', '/api/channel/', { ...channel, name: 'audit-e2e-renamed', key: 'sk-e2e-secret-2' });
    await fetch(`${product.baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'mallory', password: 'guessed-e2e-pass' }),
    });

    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    // The change made in the console itself: a setting saved on the settings page.
    await page.goto('/setting');
    const general = page.getByTestId('section-general');
    await general.waitFor();
    // A fresh install retries 3 times already: 2 is a change the audit log must show.
    await page.locator('[id="RetryTimes"]').fill('2');
    await general.getByRole('button', { name: '保存' }).click();
    const saved = async () =>
      (await api<Array<{ key: string; value: string }>>('GET', '/api/option/')).find((o) => o.key === 'RetryTimes')
        ?.value === '2';
    for (let tries = 0; !(await saved()); tries++) {
      expect(tries, 'RetryTimes saved').toBeLessThan(100);
      await page.waitForTimeout(100);
    }

    // Reached from the admin navigation.
    await page.getByRole('menuitem', { name: '审计日志' }).click();
    await page.waitForURL('**/audit');
    const text = await expectTextIn(page, 'audit-table', [
      '修改设置',
      'RetryTimes',
      '编辑渠道',
      'audit-e2e-renamed',
      '已隐藏',
      '登录失败',
      'mallory',
      '未登录',
    ]);
    expect(text).not.toContain('sk-e2e-secret');
    const settingRow = page.getByTestId('audit-table').locator('tr', { hasText: '修改设置' });
    expect(await settingRow.getByTestId('audit-diff').textContent()).toBe('RetryTimes32');
    await snap(page, 'audit-01-list');

    // Filtered to one action: only the channel edit is left.
    await page.getByLabel('操作', { exact: true }).click();
    // The action list is long (and virtual): typed to narrow it, as a person would.
    await page.keyboard.type('编辑渠道');
    await page.locator('.ant-select-dropdown').getByText('编辑渠道', { exact: true }).click();
    await page.getByTestId('audit-filters').getByRole('button', { name: '搜索' }).click();
    await page.getByText('共 1 条').waitFor();
    const filtered = await expectTextIn(page, 'audit-table', ['audit-e2e-renamed']);
    expect(filtered).not.toContain('RetryTimes');
    expect(filtered).not.toContain('mallory');
    await snap(page, 'audit-02-filtered');

    // Nothing in a window before anything happened: the empty state says no record matches.
    await page.getByLabel('操作者用户名').fill('nobody-at-all');
    await page.getByTestId('audit-filters').getByRole('button', { name: '搜索' }).click();
    await page.getByText('没有符合筛选条件的记录').waitFor();
    await context.close();

    // English, dark, on a phone.
    const phone = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await signIn(phone.page);
    await phone.page.evaluate(() => {
      localStorage.setItem('i18nextLng', 'en');
      localStorage.setItem('theme-mode', 'dark');
    });
    await phone.page.goto('/audit');
    await expectTextIn(phone.page, 'audit-table', ['Edited channel', 'Changed setting', 'Sign-in failed', 'hidden']);
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await snap(phone.page, 'audit-03-en-dark-375');
    await phone.context.close();
  });
});
