import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDialects, createTestDatabase, type TestDatabase } from '../../server/test/helpers/databases.js';
import { type FakeOAuthServer, NESTED_CLAIMS, startFakeOAuth } from '../../server/test/helpers/fake-oauth.js';
import { newPage, snap } from './helpers/browser.js';
import { type Journey, startJourney } from './helpers/journey.js';
import type { Product } from './helpers/product.js';
import { type AdminApi, signIn } from './helpers/session.js';
import { type ConsoleTexts, consoleTexts } from './helpers/texts.js';

const MIA = { username: 'mia', password: 'mia-password-1' };
const dialects = await availableDialects();

const storedUser = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { id: number; username: string } | null);

describe.each(dialects)(
  'a custom OIDC provider added in the settings and used to sign in, on %s (built product)',
  (dialect) => {
    let database: TestDatabase | null = null;
    let journey: Journey;
    let product: Product;
    let browser: Browser;
    let api: AdminApi;
    let zh: ConsoleTexts;
    let acme: FakeOAuthServer;
    let visitor = '';
    // Pictures of one engine are enough: the pages are the same on all three.
    const shot: typeof snap = dialect === 'sqlite' ? snap : async () => {};

    beforeAll(async () => {
      // A provider with its own userinfo layout (the id under data.user.uid) that refuses a request without PKCE.
      acme = await startFakeOAuth('oidc', {
        clientId: 'acme-client',
        clientSecret: 'acme-secret-e2e-7c1',
        requirePkce: true,
        userinfo: NESTED_CLAIMS,
      });
      if (dialect !== 'sqlite') database = await createTestDatabase(dialect);
      journey = await startJourney({ env: database ? { SQL_DSN: database.env.SQL_DSN } : {} });
      ({ product, browser, api } = journey);
      zh = await consoleTexts('zh');
      await api('PUT', '/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
      await api('POST', '/api/user/', { ...MIA, display_name: MIA.username });
    }, 90_000);
    afterAll(async () => {
      await journey?.close();
      await acme?.close();
      await database?.drop();
    });

    it('root adds the provider in the system settings, filling its endpoints from discovery', async () => {
      const { context, page } = await newPage(browser, product.baseUrl);
      await signIn(page);
      await page.goto('/setting?tab=system');
      const section = page.getByTestId('section-custom-oauth');
      await section.getByText(zh.t('custom_oauth.empty')).waitFor();
      await section.scrollIntoViewIfNeeded();
      await section.getByTestId('custom-oauth-add').click();
      const form = page.getByTestId('custom-oauth-form');
      await form.waitFor();
      await form.locator('#custom_oauth_name').fill('Acme ID');
      await form.locator('#custom_oauth_slug').fill('acme');
      await form.locator('#custom_oauth_well_known').fill(acme.endpoints.wellKnown);
      await form.getByRole('button', { name: zh.t('custom_oauth.discover') }).click();
      await expect.poll(() => form.locator('#custom_oauth_token_endpoint').inputValue()).toBe(acme.endpoints.token);
      expect(await form.locator('#custom_oauth_user_info_endpoint').inputValue()).toBe(acme.endpoints.user);
      await form.locator('#custom_oauth_client_id').fill(acme.clientId);
      await form.locator('#custom_oauth_client_secret').fill(acme.clientSecret);
      await form.locator('#custom_oauth_user_id_field').fill('data.user.uid');
      await form.locator('#custom_oauth_username_field').fill('data.user.login');
      await form.locator('#custom_oauth_display_name_field').fill('data.user.profile.nickname');
      await form.locator('#custom_oauth_email_field').fill('data.user.emails.0.value');
      await shot(page, 'custom-oauth-01-form', { fullPage: false });
      await page
        .getByRole('button', { name: zh.t('ui.save') })
        .last()
        .click();
      await form.waitFor({ state: 'hidden' });
      // The secret is stored but never shown again: the list only says it is set.
      const row = section.getByRole('row', { name: /Acme ID/ });
      await row.getByText(zh.t('custom_oauth.secret_set')).waitFor();
      expect(await page.content()).not.toContain(acme.clientSecret);
      await shot(page, 'custom-oauth-02-list');
      await context.close();
    });

    it('a new visitor signs in with its button and gets an account named after the provider', async () => {
      acme.person = { id: 5150, login: 'vera', name: 'Vera Visitor', email: 'vera@acme.test' };
      const { context, page } = await newPage(browser, product.baseUrl);
      await page.goto('/login?lng=zh');
      const button = page.getByTestId('custom-oauth-login-acme');
      await button.waitFor();
      expect(await button.textContent()).toContain(zh.t('custom_oauth.login_with', { name: 'Acme ID' }));
      await shot(page, 'custom-oauth-03-login-button');
      await button.click();
      // Out to the provider (a real 302 from it, which insisted on PKCE), back to /oauth/acme, into the console.
      await page.waitForURL('**/token');
      const authorize = acme.received.find((request) => request.path === '/authorize');
      expect(authorize?.query).toMatchObject({
        code_challenge_method: 'S256',
        redirect_uri: `${product.baseUrl}/oauth/acme`,
      });
      const user = await storedUser(page);
      expect(user?.username).toMatch(/^acme_\d+$/);
      visitor = user!.username;
      const record = await api<{ display_name: string; email: string }>('GET', `/api/user/${user!.id}`);
      expect(record).toMatchObject({ display_name: 'Vera Visitor', email: 'vera@acme.test' });
      await page.goto('/personal');
      await page.getByTestId('custom-binding-acme').getByText('5150').waitFor();
      await shot(page, 'custom-oauth-04-visitor-personal');
      await context.close();
    });

    it('the admin sees the visitor’s binding in the user editor', async () => {
      const { context, page } = await newPage(browser, product.baseUrl);
      await signIn(page);
      await page.goto('/user');
      const row = page.locator('tr', { hasText: visitor }).first();
      await row.getByRole('button', { name: zh.t('ui.edit') }).click();
      const bindings = page.getByTestId('user-custom-bindings');
      await bindings.getByText('5150').waitFor();
      expect(await bindings.textContent()).toContain('Acme ID');
      await bindings.scrollIntoViewIfNeeded();
      await shot(page, 'custom-oauth-05-admin-user-detail', { fullPage: false });
      await context.close();
    });

    it('a signed-in user links the provider on the personal page and unlinks it again', async () => {
      acme.person = { id: 6160, login: 'mia-at-acme', name: 'Mia' };
      const { context, page } = await newPage(browser, product.baseUrl);
      await signIn(page, MIA);
      await page.goto('/personal');
      const row = page.getByTestId('custom-binding-acme');
      await row.getByText(zh.t('personal.not_bound')).waitFor();
      await row.getByRole('button', { name: zh.t('personal.bind') }).click();
      await page.waitForURL('**/personal');
      await row.getByText('6160').waitFor();
      await row.scrollIntoViewIfNeeded();
      await shot(page, 'custom-oauth-06-linked', { fullPage: false });

      await row.getByRole('button', { name: zh.t('custom_oauth.unbind') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: zh.t('custom_oauth.unbind') })
        .click();
      await row.getByText(zh.t('personal.not_bound')).waitFor();
      await shot(page, 'custom-oauth-07-unlinked', { fullPage: false });
      await context.close();
    });
  },
);
