import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../server/test/helpers/databases.js';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

const dialects = await availableDialects();
const REWARD = 250_000; // $0.50 at the default 500,000 quota per dollar
const ALICE = { username: 'alice', password: 'alice-password-1' };
const BOB = { username: 'bob', password: 'bob-password-12' };

describe.each(dialects)('daily check-in in the wallet, on %s (built product)', (dialect) => {
  let database: TestDatabase | null = null;
  let journey: Journey;
  let product: Product;
  let browser: Browser;
  let api: AdminApi;
  const ids: Record<string, number> = {};
  const pictures = dialect === 'sqlite';

  const quotaOf = async (name: string) => (await api<{ quota: number }>('GET', `/api/user/${ids[name]}`)).quota;
  const session = async (credentials: typeof ALICE, options: { dark?: boolean; width?: number } = {}) => {
    const opened = await newPage(browser, product.baseUrl, {
      width: options.width,
      height: options.width ? 812 : undefined,
    });
    if (options.dark) await opened.context.addInitScript(() => localStorage.setItem('theme-mode', 'dark'));
    await signIn(opened.page, credentials);
    return opened;
  };
  /** The user's own API from the signed-in page (cookie and user id as the console sends them). */
  const ownCall = (page: Page, name: string, method: 'GET' | 'POST') =>
    page.request
      .fetch('/api/user/checkin', { method, headers: { 'new-api-user': String(ids[name]) } })
      .then((response) => response.json() as Promise<{ success: boolean; message: string; data: never }>);

  beforeAll(async () => {
    if (dialect !== 'sqlite') database = await createTestDatabase(dialect);
    journey = await startJourney({ env: database ? { SQL_DSN: database.env.SQL_DSN } : {} });
    ({ product, browser, api } = journey);
    for (const user of [ALICE, BOB]) {
      await api('POST', '/api/user/', { ...user, display_name: user.username });
      const found = await api<{ items: Array<{ id: number; username: string }> }>(
        'GET',
        `/api/user/search?keyword=${user.username}`,
      );
      ids[user.username] = found.items.find((row) => row.username === user.username)!.id;
    }
  }, 90_000);
  afterAll(async () => {
    await journey?.close();
    await database?.drop();
  });

  it('root turns check-in on in the settings and sets the reward', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/setting');
    const section = page.getByTestId('section-checkin');
    await section.waitFor();
    await section.getByRole('switch').click();
    await page.locator('[id="checkin_setting.min_quota"]').fill(String(REWARD));
    await page.locator('[id="checkin_setting.max_quota"]').fill(String(REWARD));
    await section.getByRole('button', { name: '保存' }).click();
    const deadline = Date.now() + 10_000;
    for (;;) {
      const status = await api<{ checkin_enabled: boolean }>('GET', '/api/status');
      const options = await api<Array<{ key: string; value: string }>>('GET', '/api/option/');
      const max = options.find((option) => option.key === 'checkin_setting.max_quota')?.value;
      if (status.checkin_enabled && max === String(REWARD)) break;
      if (Date.now() > deadline) throw new Error(`check-in settings not saved: ${status.checkin_enabled} ${max}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (pictures) {
      await section.scrollIntoViewIfNeeded();
      await snap(page, 'checkin-01-settings', { fullPage: false });
    }
    await context.close();
  });

  it('alice checks in: the reward reaches her balance, today is marked, and a second try changes nothing', async () => {
    const before = await quotaOf('alice');
    const { context, page } = await session(ALICE);
    await page.goto('/topup');
    const card = page.getByTestId('wallet-checkin');
    const button = card.getByTestId('checkin-button');
    await button.waitFor();
    expect(await card.getByTestId('checkin-streak').textContent()).toBe('0');
    expect(await card.getByText('每日奖励：$0.50').count()).toBe(1);
    if (pictures) await snap(page, 'checkin-02-wallet-before');

    await button.click();
    await page.getByText('签到成功，获得 $0.50').first().waitFor();
    await card.getByText('今日已签到').waitFor();
    expect(await button.isDisabled()).toBe(true);
    await card.getByTestId('checkin-day-done').first().waitFor();
    expect(await card.getByTestId('checkin-day-done').count()).toBe(1);
    expect(await card.getByTestId('checkin-streak').textContent()).toBe('1');
    expect(await quotaOf('alice')).toBe(before + REWARD);
    if (pictures) await snap(page, 'checkin-03-wallet-checked-in');

    const again = await ownCall(page, 'alice', 'POST');
    expect(again).toMatchObject({ success: false, message: '今天已经签到过了' });
    expect(await quotaOf('alice')).toBe(before + REWARD);
    await context.close();
  });

  it('bob double-clicks while two more check-ins race: credited exactly once', async () => {
    const before = await quotaOf('bob');
    const { context, page } = await session(BOB);
    await page.goto('/topup');
    const button = page.getByTestId('checkin-button');
    await button.waitFor();
    const [, ...answers] = await Promise.all([
      button.dblclick(),
      ownCall(page, 'bob', 'POST'),
      ownCall(page, 'bob', 'POST'),
    ]);
    await page.getByTestId('wallet-checkin').getByText('今日已签到').waitFor();
    expect(answers.filter((answer) => answer.success).length).toBeLessThanOrEqual(1);
    expect(await quotaOf('bob')).toBe(before + REWARD);
    const status = await ownCall(page, 'bob', 'GET');
    expect(status).toMatchObject({ success: true, data: { stats: { total_checkins: 1, total_quota: REWARD } } });
    await context.close();
  });

  it.runIf(pictures)('reads well in dark mode and at 375 px', async () => {
    const dark = await session(ALICE, { dark: true });
    await dark.page.goto('/topup');
    await dark.page.getByTestId('checkin-calendar').waitFor();
    await snap(dark.page, 'checkin-04-wallet-dark');
    await dark.context.close();

    const phone = await session(ALICE, { width: 375 });
    await phone.page.goto('/topup');
    const calendar = phone.page.getByTestId('checkin-calendar');
    await calendar.waitFor();
    // The seven columns fit the phone: nothing sticks out to the right.
    const box = (await calendar.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await calendar.scrollIntoViewIfNeeded();
    await snap(phone.page, 'checkin-05-wallet-375');
    await phone.context.close();
  });
});
