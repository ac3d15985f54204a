import type { TwoFactorLoginChallenge, TwoFactorStatusView } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_API_TWO_FA } from './fixtures/family/releases.js';
import { FAMILY_BACKUP_CODES, FAMILY_TOTP_SECRET, PASSWORDS, seedRows } from './fixtures/family/seed.js';
import { ApiClient } from './helpers/client.js';
import { availableDialects, type TestDatabase } from './helpers/databases.js';
import { createFamilyDatabase, familySnapshot } from './helpers/family-database.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { totpCode } from './helpers/totp.js';

const dialects = await availableDialects();

const familyCode = (steps: number) => totpCode(FAMILY_TOTP_SECRET, steps);

describe.each(dialects)('a new-api database with two-factor sign-in, started on in place, on %s', (dialect) => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await createFamilyDatabase(dialect, NEW_API_TWO_FA, await seedRows('http://127.0.0.1:9'));
    server = await startTestServer(dialect, {}, database);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  async function passwordStep() {
    const client = new ApiClient(server.baseUrl);
    const answer = await client.post<TwoFactorLoginChallenge>('/api/user/login', {
      username: 'alice',
      password: PASSWORDS.alice,
    });
    expect(answer.data).toMatchObject({ require_2fa: true });
    return { client, flow: answer.data.flow_token };
  }

  it('keeps the family’s 2FA: its plaintext secret and bcrypt backup codes sign Alice in, each code once', async () => {
    const first = await passwordStep();
    const signedIn = await first.client.post<{ id: number }>('/api/user/login/2fa', {
      code: familyCode(0),
      flow_token: first.flow,
    });
    expect(signedIn).toMatchObject({ success: true, data: { id: 2, username: 'alice' } });
    first.client.userId = 2;
    expect((await first.client.get<TwoFactorStatusView>('/api/user/2fa/status')).data).toMatchObject({
      enabled: true,
      locked: false,
      backup_codes_remaining: 1,
    });

    const spent = await passwordStep();
    expect(
      await spent.client.post('/api/user/login/2fa', { code: FAMILY_BACKUP_CODES.used, flow_token: spent.flow }),
    ).toMatchObject({ success: false });
    expect(
      await spent.client.post('/api/user/login/2fa', { code: FAMILY_BACKUP_CODES.unused, flow_token: spent.flow }),
    ).toMatchObject({ success: true });

    // Written in the family's shape: its server reads the code as used, with a time.
    const after = await familySnapshot(database, NEW_API_TWO_FA);
    const code = after.rows.two_fa_backup_codes!.find((row) => row.id === 1)!;
    expect(Boolean(code.is_used)).toBe(true);
    expect(code.used_at).not.toBeNull();
    expect(after.rows.two_fas![0]).toMatchObject({ user_id: 2, secret: FAMILY_TOTP_SECRET, failed_attempts: 0 });
  });
});
