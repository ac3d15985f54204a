import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';

describe('model fallback in the console (built product, mock upstream)', () => {
  let product: Product;
  let browser: Browser;
  let journey: UpstreamJourney;
  let mock: MockUpstream;
  let api: AdminApi;

  beforeAll(async () => {
    journey = await startUpstreamJourney();
    ({ product, browser, api, mock } = journey);
    for (const model of ['primary-model', 'backup-model']) {
      await api('POST', '/api/channel/', {
        mode: 'single',
        channel: { type: 1, name: model, key: 'sk-e2e', base_url: mock.baseUrl, models: model, group: 'default' },
      });
    }
    await api('PUT', '/api/option/', { key: 'ModelRatio', value: '{"primary-model": 1, "backup-model": 2}' });
  });
  afterAll(async () => {
    await journey?.close();
  });

  it('sets fallback models in the token form, sees them on the list, and the key falls back', async () => {
    const { context, page } = await newPage(browser, product.baseUrl);
    await signIn(page);
    await page.getByTestId('token-create').click();
    const form = page.getByTestId('token-form');
    await form.waitFor();
    await form.getByLabel('名称').fill('备用令牌');
    const field = form.getByLabel('备用模型');
    await field.click();
    await field.fill('backup-model');
    await field.press('Enter');
    await form.getByText('按顺序改用这些模型').click();
    await snap(page, 'fallback-01-token-form');
    await form.getByRole('button', { name: '创建' }).click();

    const row = page.getByTestId('token-table').getByRole('row').filter({ hasText: '备用令牌' });
    await row.getByTestId('token-fallback').getByText('backup-model').waitFor();
    await snap(page, 'fallback-02-token-list');

    const tokens = await api<{ items: Array<{ key: string; name: string; fallback_models: string }> }>(
      'GET',
      '/api/token/?p=1&size=10',
    );
    const token = tokens.items.find((item) => item.name === '备用令牌')!;
    expect(token.fallback_models).toBe('backup-model');
    mock.enqueue('openai.chat', { kind: 'status', status: 500 });
    const relay = await fetch(`${product.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'primary-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect([relay.status, relay.headers.get('x-gateway-served-model')]).toEqual([200, 'backup-model']);

    // The edit form shows the stored list; clearing it clears the column.
    await row.getByRole('button', { name: '编辑' }).click();
    const edit = page.getByTestId('token-form');
    await edit.getByText('backup-model').waitFor();
    await edit.getByLabel('备用模型').press('Backspace');
    await edit.getByRole('button', { name: '保存' }).click();
    await row.getByText('无').first().waitFor();
    await expect.poll(async () => row.getByTestId('token-fallback').count()).toBe(0);
    await context.close();
  });

  it('edits the group fallback models and statuses in English, refusing malformed values', async () => {
    const { context, page } = await newPage(browser, product.baseUrl, { locale: 'en-US' });
    await signIn(page);
    await page.goto('/setting?tab=ratelimit&lng=en');
    const section = page.getByTestId('section-group-fallback');
    await section.waitFor();
    const models = section.getByLabel('Fallback models per group');
    const statuses = section.getByLabel('Statuses that fall back');
    await models.fill('{"default": "backup-model"}');
    await statuses.fill('400');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText(/must be a JSON object: group → \["fallback model"/).waitFor();
    await section.getByText(/must be a comma list of statuses or ranges/).waitFor();
    await models.fill('{"default": ["backup-model"]}');
    await statuses.fill('429,500-599');
    await section.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').first().waitFor();
    const options = await api<Array<{ key: string; value: string }>>('GET', '/api/option/');
    const value = (key: string) => options.find((option) => option.key === key)!.value;
    expect(JSON.parse(value('GroupFallbackModels'))).toEqual({ default: ['backup-model'] });
    expect(value('FallbackStatusCodes')).toBe('429,500-599');
    await snap(page, 'fallback-03-group-settings');
    await context.close();
  });
});
