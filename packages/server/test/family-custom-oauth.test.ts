import type { CustomOAuthProviderView, UserOAuthBindingView } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_API_CUSTOM_OAUTH } from './fixtures/family/releases.js';
import {
  customOAuthRows,
  FAMILY_OAUTH_SECRET,
  FAMILY_OAUTH_SUBJECT,
  PASSWORDS,
  seedRows,
} from './fixtures/family/seed.js';
import { ApiClient } from './helpers/client.js';
import { availableDialects, type TestDatabase } from './helpers/databases.js';
import { type FakeOAuthServer, startFakeOAuth } from './helpers/fake-oauth.js';
import { OAuthBrowser } from './helpers/fake-oauth-browser.js';
import { createFamilyDatabase, familySnapshot } from './helpers/family-database.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

describe.each(dialects)('a new-api database with custom OAuth providers, started on in place, on %s', (dialect) => {
  let database: TestDatabase;
  let server: TestServer;
  let acme: FakeOAuthServer;

  beforeAll(async () => {
    acme = await startFakeOAuth('oidc', { clientId: 'family-acme', clientSecret: FAMILY_OAUTH_SECRET });
    const rows = { ...(await seedRows('http://127.0.0.1:9')), ...customOAuthRows(acme.baseUrl, acme.clientId) };
    database = await createFamilyDatabase(dialect, NEW_API_CUSTOM_OAUTH, rows);
    server = await startTestServer(dialect, {}, database);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
    await acme?.close();
  });

  it('keeps the family’s provider and Alice’s binding: she signs in with it, its plaintext secret still works', async () => {
    const root = new ApiClient(server.baseUrl);
    await root.login('root', PASSWORDS.root);
    await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
    const list = await root.get<CustomOAuthProviderView[]>('/api/custom-oauth-provider/');
    expect(list.data).toEqual([
      expect.objectContaining({
        id: 1,
        slug: 'acme-sso',
        enabled: true,
        client_secret_set: true,
        user_id_field: 'sub',
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain(FAMILY_OAUTH_SECRET);

    acme.person = { id: FAMILY_OAUTH_SUBJECT, login: 'alice' };
    const signIn = await new OAuthBrowser(server.baseUrl).providerJourney<{ id: number; username: string }>('acme-sso');
    expect(signIn.result).toMatchObject({ success: true, data: { id: 2, username: 'alice' } });

    const alice = new ApiClient(server.baseUrl);
    await alice.login('alice', PASSWORDS.alice);
    expect((await alice.get<UserOAuthBindingView[]>('/api/user/oauth/bindings')).data).toEqual([
      expect.objectContaining({ provider_id: 1, provider_slug: 'acme-sso', provider_user_id: FAMILY_OAUTH_SUBJECT }),
    ]);

    // A save from our settings leaves the family's own columns and its plaintext secret as they were.
    expect((await root.put('/api/custom-oauth-provider/1', { name: 'Acme Single Sign-On' })).success).toBe(true);
    const after = await familySnapshot(database, NEW_API_CUSTOM_OAUTH);
    expect(after.rows.custom_oauth_providers![0]).toMatchObject({
      name: 'Acme Single Sign-On',
      client_secret: FAMILY_OAUTH_SECRET,
      kind: 'oauth_code',
      access_denied_message: 'family-only column',
    });
    expect(after.rows.user_oauth_bindings).toEqual([
      expect.objectContaining({ user_id: 2, provider_id: 1, provider_user_id: FAMILY_OAUTH_SUBJECT }),
    ]);
  });
});
