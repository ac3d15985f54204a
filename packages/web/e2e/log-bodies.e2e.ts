import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { signIn } from './helpers/session.js';

describe('an admin opens a call in the usage log and reads its kept request and response (built product)', () => {
  let product: Product;
  let browser: Browser;
  let journey: UpstreamJourney;
  let mock: MockUpstream;
  let channelId: number;

  beforeAll(async () => {
    journey = await startUpstreamJourney({ privateConsole: true });
    ({ product, browser, mock } = journey);
    const { api } = journey;
    [channelId] = (await api<number[]>('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: 'kept-bodies',
        key: 'sk-e2e-upstream-key',
        base_url: mock.baseUrl,
        models: 'gpt-4o',
        group: 'default',
        setting: JSON.stringify({ log_bodies: true }),
      },
    })) as [number];
    const [token] = await api<Array<{ key: string }>>('POST', '/api/token/', { name: 'e2e', unlimited_quota: true });
    mock.setDefault('openai.chat', {
      kind: 'ok',
      text: 'Kept answer from the mock',
      usage: { prompt: 9, completion: 5 },
    });
    const answer = await fetch(`${product.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token!.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Which body is kept?' }] }),
    });
    expect(answer.status).toBe(200);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('shows the request and the answer, pretty-printed, on desktop, at 375 px and in English', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/log');
    const table = page.getByTestId('log-table');
    await table.getByText('gpt-4o', { exact: true }).first().waitFor();
    await table.getByRole('button', { name: '详情' }).first().click();
    await page.getByRole('button', { name: '查看请求与响应' }).click();
    const request = page.getByTestId('log-body-request');
    await request.locator('pre').waitFor();
    // Indented JSON, exactly the body the client sent.
    expect(await request.locator('pre').textContent()).toBe(
      JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Which body is kept?' }] }, null, 2),
    );
    const response = await page.getByTestId('log-body-response').locator('pre').textContent();
    expect(JSON.parse(response!).choices[0].message.content).toBe('Kept answer from the mock');
    expect(response).not.toContain('sk-e2e-upstream-key');
    await snap(page, 'log-bodies-01-desktop');
    await context.close();

    const phone = await newPage(browser, product.baseUrl, { width: 375, height: 812 });
    await signIn(phone.page);
    await phone.page.goto('/log?lng=en');
    await phone.page.getByRole('button', { name: 'Details' }).first().click();
    await phone.page.getByRole('button', { name: 'Show request and response' }).click();
    await phone.page.getByTestId('log-body-response').locator('pre').waitFor();
    await phone.page.getByText('Request / response').waitFor();
    // Long lines wrap: nothing is wider than the phone.
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await snap(phone.page, 'log-bodies-02-phone-en');
    await phone.context.close();
  });

  it("shows the channel's switch on in its advanced settings", async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto(`/channel/edit/${channelId}`);
    await page.getByText('高级设置').click();
    const toggle = page.getByTestId('channel-log-bodies');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await context.close();
  });
});
