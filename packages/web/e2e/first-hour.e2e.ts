import { type Language, translate } from '@gateway/shared';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../../server/test/mock-upstream/index.js';
import { newPage, snap } from './helpers/browser.js';
import { startUpstreamJourney, type UpstreamJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn as signInAs } from './helpers/session.js';
import { BROWSER_LOCALES, type ConsoleTexts, consoleTexts } from './helpers/texts.js';

const HELPER = { username: 'helper', password: 'helper-pass-1' };
const NEWBIE = { username: 'newbie', password: 'newbie-pass-1' };

/** The left and right edges of an element on screen. */
async function edges(element: Locator) {
  const box = await element.boundingBox();
  if (!box) throw new Error('not on screen');
  return { left: box.x, right: box.x + box.width };
}

/**
 * Each language's run starts its own fresh product, with a browser that prefers that language: Chinese (the
 * product's default), English, and French as one of the five added later. Texts are found by their keys.
 */
const JOURNEY_LANGUAGES: Language[] = ['zh', 'en', 'fr'];

describe.each(JOURNEY_LANGUAGES)(
  'the first hour in %s: what a newcomer stumbled on (built product, mock upstream)',
  (lang) => {
    let texts: ConsoleTexts;
    let t: ConsoleTexts['t'];
    let product: Product;
    let browser: Browser;
    let journey: UpstreamJourney;
    let mock: MockUpstream;
    let api: AdminApi;

    const locale = BROWSER_LOCALES[lang]!;
    const open = (options: { width?: number; height?: number } = {}) =>
      newPage(browser, product.baseUrl, { ...options, locale });
    const signIn: typeof signInAs = (page, credentials) => signInAs(page, credentials, texts);
    const shot = (page: Parameters<typeof snap>[0], name: string, options?: Parameters<typeof snap>[2]) =>
      snap(page, `first-hour-${lang}-${name}`, options);

    beforeAll(async () => {
      texts = await consoleTexts(lang);
      t = texts.t;
      journey = await startUpstreamJourney();
      ({ product, browser, api, mock } = journey);
    });
    afterAll(async () => {
      await journey?.close();
    });

    it('a fresh admin sees "first a channel, then a key", and the settings link keeps the half-filled form', async () => {
      const { context, page } = await open();
      await signIn(page);
      const steps = page.getByTestId('token-first-steps');
      await steps.waitFor();
      await page.getByText(t('token.empty_admin_steps')).waitFor();
      expect(await page.getByText(t('token.empty')).count()).toBe(0);
      await shot(page, '01-token-first-steps');
      await steps.getByRole('link', { name: t('channel.add') }).click();
      await page.waitForURL('**/channel/add');

      await page.getByLabel(t('channel_form.name'), { exact: true }).fill('半填的渠道');
      await page.getByLabel(t('channel_form.base_url'), { exact: true }).fill(mock.baseUrl);
      await page.getByLabel(t('channel_form.key'), { exact: true }).fill('sk-e2e-upstream');
      await page.getByRole('button', { name: t('channel_form.fetch_models') }).click();
      const hint = page.getByTestId('private-address-hint');
      await hint.waitFor();
      const [settings] = await Promise.all([
        context.waitForEvent('page'),
        hint.getByRole('link', { name: t('channel_form.private_address_open_setting') }).click(),
      ]);
      await settings.waitForURL('**/setting?tab=system');
      await settings.getByText(t('setting.tabs.system')).first().waitFor();
      // The form in the first tab is untouched.
      expect(await page.getByLabel(t('channel_form.name'), { exact: true }).inputValue()).toBe('半填的渠道');
      expect(page.url()).toMatch(/\/channel\/add$/);
      await shot(page, '02-form-kept');
      await context.close();
    });

    it('a failed channel test names the channel and the reason; an unfetched balance reads "unknown"', async () => {
      for (const [name, key, models, priority] of [
        ['主渠道', 'sk-good', 'gpt-4o-mini,unpriced-model', 10],
        ['备渠道', 'sk-good-2', 'gpt-4o-mini,unpriced-model', 10],
        ['坏渠道', 'invalid-key', 'gpt-3.5-turbo', 0],
      ] as const) {
        await api('POST', '/api/channel/', {
          mode: 'single',
          channel: { type: 1, name, key, base_url: mock.baseUrl, models, group: 'default', priority },
        });
      }
      const { context, page } = await open();
      await signIn(page);
      await page.goto('/channel');
      const table = page.getByTestId('channel-table');
      await table.getByText('坏渠道').waitFor();
      // Never fetched: "unknown", not $0.00.
      const balance = page.getByLabel(t('channel.update_balance_of', { name: '主渠道' }));
      expect(await balance.getAttribute('data-balance')).toBe('unknown');
      expect(await balance.textContent()).toBe(t('channel.remaining', { value: t('channel.balance_unknown') }));

      const test = page.getByLabel(t('channel.test_channel', { name: '坏渠道' }));
      await test.click();
      await page
        .getByText(texts.pattern('channel.test_failed_toast', { name: '坏渠道' }))
        .first()
        .waitFor();
      await expect.poll(() => test.getAttribute('data-latency')).toBe('failed');
      expect(await test.textContent()).toBe(t('channel.last_test_failed'));
      await test.hover();
      await page.getByTestId('test-failure-detail').getByText(texts.pattern('channel.disabled_reason')).waitFor();
      await shot(page, '03-channel-test-failed');
      await context.close();
    });

    it('labels an admin and root by their roles; a user with $0 is told to top up, and sees no dead ends', async () => {
      await api('POST', '/api/user/', { ...HELPER, display_name: 'Helper' });
      await api('POST', '/api/user/', { ...NEWBIE, display_name: 'Newbie' });
      const found = await api<{ items: Array<{ id: number; username: string }> }>(
        'GET',
        '/api/user/search?keyword=helper',
      );
      const helperId = found.items.find((user) => user.username === 'helper')!.id;
      await api('POST', '/api/user/manage', { id: helperId, action: 'promote' });

      const root = await open();
      await signIn(root.page);
      await root.page.goto('/personal');
      expect(await root.page.getByTestId('profile-role').textContent()).toBe(t('users.role_root'));
      await root.context.close();

      const helper = await open();
      await signIn(helper.page, HELPER);
      await helper.page.goto('/personal');
      expect(await helper.page.getByTestId('profile-role').textContent()).toBe(t('users.role_admin'));
      await shot(helper.page, '04-admin-role');
      await helper.context.close();

      const { context, page } = await open();
      await signIn(page, NEWBIE);
      await page.getByTestId('zero-balance-hint').getByText(t('wallet.zero_balance_hint')).waitFor();
      // A user's empty list asks for a key; the channel steps are for admins.
      await page.getByText(t('token.empty')).waitFor();
      expect(await page.getByTestId('token-first-steps').count()).toBe(0);
      await shot(page, '05-newbie-tokens');
      await page
        .getByTestId('zero-balance-hint')
        .getByRole('link', { name: t('wallet.zero_balance_action') })
        .click();
      await page.waitForURL('**/topup');
      await page.getByTestId('wallet-redeem').waitFor();
      await page.getByTestId('zero-balance-hint').waitFor();
      // Neither a top-up link nor a payment gateway is configured: nothing offers them.
      expect(await page.getByText(t('wallet.buy_codes')).count()).toBe(0);
      expect(await page.getByTestId('wallet-pay-zfb').count()).toBe(0);
      await shot(page, '06-newbie-wallet');
      await page.goto('/detail');
      await page.getByTestId('zero-balance-hint').waitFor();
      await shot(page, '07-newbie-dashboard');
      await context.close();
    });

    it('offers unpriced models disabled, with the reason, in the playground and the fallback picker', async () => {
      const { context, page } = await open();
      await signIn(page);
      await page.goto('/playground');
      const model = page.getByTestId('playground-model');
      await model.click();
      const unpriced = page.locator('.ant-select-item-option').filter({ hasText: 'unpriced-model' });
      await unpriced.getByText(t('ui.model_unpriced')).waitFor();
      expect(await unpriced.getAttribute('aria-disabled')).toBe('true');
      await shot(page, '08-playground-unpriced');
      await page.keyboard.press('Escape');

      await page.goto('/token');
      await page.getByTestId('token-create').click();
      const form = page.getByTestId('token-form');
      await form.waitFor();
      await form.getByLabel(t('fallback.field')).click();
      const option = page.locator('.ant-select-item-option').filter({ hasText: 'unpriced-model' });
      await option.getByText(t('ui.model_unpriced')).waitFor();
      expect(await option.getAttribute('aria-disabled')).toBe('true');
      expect(
        await page.locator('.ant-select-item-option').filter({ hasText: 'gpt-4o-mini' }).getAttribute('aria-disabled'),
      ).toBe('false');
      await shot(page, '09-fallback-unpriced', { fullPage: false });
      await context.close();
    });

    it('shows cost and retries in view at 1366 px, the cost in the opened row, and the cost on a phone', async () => {
      await api('PUT', '/api/option/', { key: 'RetryTimes', value: '2' });
      await api('POST', '/api/token/', { name: 'first-call', unlimited_quota: true });
      const tokens = await api<{ items: Array<{ key: string; name: string }> }>('GET', '/api/token/?p=1&size=10');
      const token = tokens.items.find((item) => item.name === 'first-call')!;
      const call = () =>
        fetch(`${product.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
        });
      mock.setDefault('openai.chat', { kind: 'ok', text: 'hello', usage: { prompt: 1000, completion: 500 } });
      expect((await call()).status).toBe(200);
      mock.enqueue('openai.chat', { kind: 'status', status: 500 });
      expect((await call()).status).toBe(200);

      const { context, page } = await open({ width: 1366, height: 860 });
      await signIn(page);
      await page.goto('/log');
      const table = page.getByTestId('log-table');
      await table.getByTestId('log-retry').first().waitFor();
      const details = await edges(page.getByRole('columnheader', { name: t('log.col_details') }));
      for (const name of [t('log.col_quota'), t('log.col_retry')]) {
        const column = await edges(page.getByRole('columnheader', { name }));
        expect(column.right, `${name} is left of the pinned details column`).toBeLessThanOrEqual(details.left + 1);
        expect(column.left).toBeGreaterThanOrEqual(0);
      }
      const retry = await edges(table.getByTestId('log-retry').first());
      expect(retry.right).toBeLessThanOrEqual(details.left + 1);
      await shot(page, '10-log-1366');
      await table
        .getByRole('button', { name: t('log.show_details') })
        .first()
        .click();
      const cost = page.getByTestId('log-details-quota').first();
      await cost.waitFor();
      expect(await cost.textContent()).toMatch(/^\$\d/);
      await shot(page, '11-log-1366-opened');
      await context.close();

      const phone = await open({ width: 375, height: 812 });
      await signIn(phone.page);
      await phone.page.goto('/log');
      const cards = phone.page.getByTestId('log-table');
      await cards.getByTestId('log-retry').first().waitFor();
      await cards.getByText(/^\$\d/).first().waitFor();
      await shot(phone.page, '12-log-375');
      await phone.context.close();
    });

    it('shows a failed call in the reader’s language, whatever the caller’s, and its fallback in words', async () => {
      await api('POST', '/api/channel/', {
        mode: 'single',
        channel: {
          type: 1,
          name: '次渠道',
          key: 'sk-good-3',
          base_url: mock.baseUrl,
          models: 'gpt-4o',
          group: 'default',
        },
      });
      await api('POST', '/api/token/', {
        name: 'with-fallback',
        unlimited_quota: true,
        fallback_models: 'gpt-4o-mini',
      });
      const tokens = await api<{ items: Array<{ key: string; name: string }> }>('GET', '/api/token/?p=1&size=10');
      const token = tokens.items.find((item) => item.name === 'with-fallback')!;
      // Every try fails before an answer: the model, its retries and its fallback model.
      for (let attempt = 0; attempt < 10; attempt++) mock.enqueue('openai.chat', { kind: 'reset-before' });
      // An API caller that names no language: the answer is English, the log row is read in the admin's language.
      const failed = await fetch(`${product.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(failed.status).toBe(502);
      const answer = (await failed.json()) as { error: { message: string } };
      expect(answer.error.message).toContain(translate('relay_upstream_unavailable', 'en'));

      const { context, page } = await open({ width: 1366, height: 860 });
      await signIn(page);
      await page.goto('/log');
      const words = translate('relay_upstream_unavailable', lang);
      const row = page.getByTestId('log-table').getByRole('row').filter({ hasText: words }).first();
      await row.waitFor();
      await row.getByRole('button', { name: t('log.show_details') }).click();
      const details = page.getByTestId('log-details').first();
      await details.getByText(words, { exact: true }).waitFor();
      await details.getByText(t('log.detail_requested_model')).waitFor();
      await details.getByText(t('log.detail_fallback_chain')).waitFor();
      await details.getByText('gpt-4o → gpt-4o-mini').waitFor();
      const shown = (await details.textContent()) ?? '';
      for (const raw of ['requested_model', 'fallback_chain', 'message_code']) expect(shown).not.toContain(raw);
      await shot(page, '13-log-failed-call');
      await context.close();
    });
  },
);
