import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../server/test/helpers/databases.js';
import { newPage, snap } from './helpers/browser.js';
import { type FreshJourney, startFreshJourney } from './helpers/journey.js';
import { ADMIN, setupTokenInLog, signIn } from './helpers/session.js';

const dialects = await availableDialects();

describe.each(dialects)('a fresh instance is set up only with the token from its log, on %s', (dialect) => {
  let database: TestDatabase | null = null;
  let journey: FreshJourney;

  beforeAll(async () => {
    if (dialect !== 'sqlite') database = await createTestDatabase(dialect);
    journey = await startFreshJourney({ env: database ? { SQL_DSN: database.env.SQL_DSN } : {} });
  }, 60_000);
  afterAll(async () => {
    await journey?.close();
    await database?.drop();
  });

  it('asks for the token, refuses a wrong one, and sets up with the printed one', async () => {
    const { product, browser } = journey;
    const printed = setupTokenInLog(product.output());
    expect(printed).not.toBe('');
    const tokenFile = join(product.dataDir, '.setup_token');
    // Beside the SQLite file only; PostgreSQL and MariaDB have it in the log alone.
    expect(existsSync(tokenFile)).toBe(dialect === 'sqlite');

    const { context, page } = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await page.goto('/setup?lng=zh');
    await page.getByTestId('setup-form').waitFor();
    await page.getByLabel('管理员用户名').fill(ADMIN.username);
    await page.getByLabel('密码', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('确认密码').fill(ADMIN.password);
    await page.getByRole('button', { name: '初始化系统' }).click();
    await page.getByText('请输入设置令牌').first().waitFor();
    if (dialect === 'sqlite') {
      // What the phone shows around the field (a full-page picture puts the sticky header over it).
      await page.getByLabel('设置令牌').evaluate((input) => input.scrollIntoView({ block: 'center' }));
      await snap(page, 'setup-token-01-required-375', { fullPage: false });
    }

    await page.getByLabel('设置令牌').fill('not-the-token');
    await page.getByRole('button', { name: '初始化系统' }).click();
    await page.getByText('设置令牌不正确').first().waitFor();
    const refused = await fetch(`${product.baseUrl}/api/setup`);
    expect(((await refused.json()) as { data: { status: boolean } }).data.status).toBe(false);

    await page.getByLabel('设置令牌').fill(printed);
    await page.getByRole('button', { name: '初始化系统' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    expect(existsSync(tokenFile)).toBe(false);
    await signIn(page);
    await context.close();
  });
});
