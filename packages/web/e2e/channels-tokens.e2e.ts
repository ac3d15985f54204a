import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

describe('an admin connects channels and a user manages API tokens (built product, mock upstream)', () => {
  let product: Product;
  let browser: Browser;
  let journey: UpstreamJourney;
  let mock: MockUpstream;
  let api: AdminApi;

  beforeAll(async () => {
    journey = await startUpstreamJourney();
    ({ product, browser, api, mock } = journey);
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('adds an OpenAI channel through the form, tests it and sees its response time', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/channel/add');
    const form = page.getByTestId('channel-form');
    await form.waitFor();
    await page.getByRole('button', { name: '创建渠道' }).click();
    await page.getByText('请填写渠道名称和渠道密钥！').first().waitFor();
    await snap(page, 'channels-01-form-validation');

    await page.getByLabel('名称', { exact: true }).fill('主力 OpenAI');
    await page.getByLabel('API 地址').fill(mock.baseUrl);
    await page.getByLabel('密钥').fill('sk-e2e-upstream');
    await page.getByRole('button', { name: '填入相关模型' }).click();
    await snap(page, 'channels-02-form-filled');
    await page.getByRole('button', { name: '创建渠道' }).click();
    await page.waitForURL('**/channel');
    const table = page.getByTestId('channel-table');
    await table.getByText('主力 OpenAI').waitFor();

    await page.getByLabel('测试渠道 主力 OpenAI').click();
    await page
      .getByText(/渠道 主力 OpenAI 测试成功/)
      .first()
      .waitFor();
    expect(mock.requests.some((request) => request.headers.authorization === 'Bearer sk-e2e-upstream')).toBe(true);
    const latency = await page.getByLabel('测试渠道 主力 OpenAI').getAttribute('data-latency');
    expect(latency).toBe('green');
    await snap(page, 'channels-03-tested');
    await context.close();
  });

  it('shows an auto-disabled channel with its reason, and groups tagged channels in tag mode', async () => {
    await api('PUT', '/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' });
    const [broken] = await api<number[]>('POST', '/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: '坏渠道',
        key: 'invalid-key',
        base_url: mock.baseUrl,
        models: 'gpt-4o-mini',
        group: 'default',
      },
    });
    const tagged = await api<number[]>('POST', '/api/channel/', {
      mode: 'batch',
      channel: {
        type: 1,
        name: '批量',
        key: 'k1\nk2',
        base_url: mock.baseUrl,
        models: 'gpt-4o-mini',
        group: 'default',
      },
    });
    await api('POST', '/api/channel/batch/tag', { ids: tagged, tag: '备用池' });

    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.goto('/channel');
    await page.getByLabel('测试渠道 坏渠道').click();
    await page.getByText('自动禁用').first().waitFor();
    await page.getByText('自动禁用').first().hover();
    await page
      .getByText(/原因：/)
      .first()
      .waitFor();
    await snap(page, 'channels-04-auto-disabled');
    expect(broken).toBeGreaterThan(0);

    await page.getByRole('switch', { name: '标签聚合' }).click();
    await page.getByTestId('channel-table').getByText('备用池').waitFor();
    await page.getByText('2 个渠道').first().waitFor();
    await snap(page, 'channels-05-tag-mode');
    await context.close();
  });

  it('lets a user create, copy and disable an API token that then works against the relay', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.getByTestId('token-create').click();
    const form = page.getByTestId('token-form');
    await form.waitFor();
    await form.getByLabel('名称').fill('e2e 令牌');
    await page
      .getByRole('button', { name: '确定' })
      .or(page.getByRole('button', { name: '创建' }))
      .first()
      .click();
    await page.getByTestId('token-table').getByText('e2e 令牌').waitFor();
    await snap(page, 'tokens-01-created');

    const tokens = await api<{ items: Array<{ key: string; name: string; id: number }> }>(
      'GET',
      '/api/token/?p=1&size=10',
    );
    const token = tokens.items.find((item) => item.name === 'e2e 令牌')!;
    const relay = await fetch(`${product.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(relay.status).toBe(200);

    await page.getByLabel('禁用令牌').first().click();
    await page.getByText('令牌已禁用').first().waitFor();
    const refused = await fetch(`${product.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(refused.status).toBe(401);
    await snap(page, 'tokens-02-disabled');
    await context.close();
  });
});
