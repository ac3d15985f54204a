import {
  Role,
  type TwoFactorBackupCodesView,
  type TwoFactorLoginChallenge,
  type TwoFactorSetupView,
  type TwoFactorStatsView,
  type TwoFactorStatusView,
} from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ROLE_REFUSED, refusal, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { totpCode } from './helpers/totp.js';

const dialects = await availableDialects();

const codeOf = totpCode;

/** A code of the secret that is not the current one nor a neighbour (so surely wrong). */
function wrongCodeOf(secret: string): string {
  const near = new Set([-1, 0, 1].map((steps) => codeOf(secret, steps)));
  for (let n = 0; ; n += 1) {
    const candidate = String(n).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
}

describe.each(dialects)('two-factor sign-in on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
  }, 60_000);
  afterAll(async () => server?.close());

  /** A signed-in user with 2FA set up and enabled; returns the secret and backup codes the setup showed. */
  async function userWithTwoFactor(name: string) {
    const client = await signedInUser(server.baseUrl, server.ctx.repos, name);
    const setup = await client.post<TwoFactorSetupView>('/api/user/2fa/setup');
    expect(setup.success).toBe(true);
    expect((await client.post('/api/user/2fa/enable', { code: codeOf(setup.data.secret) })).success).toBe(true);
    return { client, secret: setup.data.secret, backupCodes: setup.data.backup_codes, password: `${name}-password` };
  }

  /** The first step of a sign-in, with a fresh client. */
  async function passwordStep(name: string) {
    const client = new ApiClient(server.baseUrl);
    const answer = await client.post<TwoFactorLoginChallenge>('/api/user/login', {
      username: name,
      password: `${name}-password`,
    });
    return { client, answer };
  }

  async function secondStep(client: ApiClient, flowToken: string, code: string) {
    const answer = await client.post<{ id: number }>('/api/user/login/2fa', { code, flow_token: flowToken });
    if (answer.success) client.userId = answer.data.id;
    return answer;
  }

  it('is enabled only by a valid code of the secret it showed; the secret is stored sealed, the codes hashed', async () => {
    const alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    expect((await alice.get<TwoFactorStatusView>('/api/user/2fa/status')).data).toEqual({
      enabled: false,
      locked: false,
      setup_required: false,
    });
    expect(await alice.post('/api/user/2fa/enable', { code: '123456' })).toMatchObject({
      success: false,
      message: '请先完成2FA初始化设置',
    });

    const setup = await alice.post<TwoFactorSetupView>('/api/user/2fa/setup');
    expect(setup.success).toBe(true);
    expect(setup.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.data.qr_code_data).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.data.qr_code_data).toContain(`secret=${setup.data.secret}`);
    expect(setup.data.backup_codes).toHaveLength(10);
    for (const code of setup.data.backup_codes) expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);

    const stored = (await server.ctx.repos.twoFas.find(alice.userId!))!;
    expect(stored.secret.startsWith('enc:v1:')).toBe(true);
    expect(stored.secret).not.toContain(setup.data.secret);
    const hashes = await server.ctx.repos.twoFas.unusedCodes(alice.userId!);
    expect(hashes).toHaveLength(10);
    for (const { codeHash } of hashes) expect(setup.data.backup_codes).not.toContain(codeHash);

    expect(await alice.post('/api/user/2fa/enable', { code: wrongCodeOf(setup.data.secret) })).toMatchObject({
      success: false,
      message: '验证码或备用码错误，请重试',
    });
    expect(await alice.post('/api/user/2fa/enable', { code: 'not-a-code' })).toMatchObject({ success: false });
    expect((await alice.get<TwoFactorStatusView>('/api/user/2fa/status')).data.enabled).toBe(false);

    const enabled = await alice.post('/api/user/2fa/enable', { code: codeOf(setup.data.secret) });
    expect(enabled).toMatchObject({ success: true, message: '两步验证启用成功' });
    expect((await alice.get<TwoFactorStatusView>('/api/user/2fa/status')).data).toEqual({
      enabled: true,
      locked: false,
      setup_required: false,
      backup_codes_remaining: 10,
    });
    // A second setup while enabled would replace the secret in use.
    expect(await alice.post('/api/user/2fa/setup')).toMatchObject({ success: false });
  });

  it('asks for the second step at sign-in and creates the session only after a right code', async () => {
    const { secret, backupCodes } = await userWithTwoFactor('bob');
    const { client, answer } = await passwordStep('bob');
    expect(answer.success).toBe(true);
    expect(answer.message).toBe('请输入两步验证码');
    expect(answer.data).toMatchObject({ require_2fa: true, flow_token: expect.any(String) });
    expect(answer.data.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect(client.sessionCookie).toBe('');
    expect((await client.get('/api/user/self')).status).toBe(401);

    // A made-up flow token, or none, reaches nothing.
    expect(await secondStep(client, 'forged.token', codeOf(secret, 1))).toMatchObject({
      success: false,
      message: '会话已过期，请重新登录',
    });
    expect(await secondStep(client, answer.data.flow_token, wrongCodeOf(secret))).toMatchObject({ success: false });
    expect(client.sessionCookie).toBe('');

    const accepted = codeOf(secret, 1);
    const done = await secondStep(client, answer.data.flow_token, accepted);
    expect(done).toMatchObject({ success: true, data: { username: 'bob' } });
    expect((await client.get<{ username: string }>('/api/user/self')).data.username).toBe('bob');

    // The same code again (a replay) does not sign anyone in.
    const again = await passwordStep('bob');
    expect(await secondStep(again.client, again.answer.data.flow_token, accepted)).toMatchObject({
      success: false,
    });

    // The family's older console sends only the code: the flow travels in its HttpOnly cookie. (The next TOTP step is
    // not due yet, so a backup code.)
    const older = await passwordStep('bob');
    const flowCookie = older.answer.headers.getSetCookie().find((line) => line.startsWith('two_fa_flow='));
    expect(flowCookie).toMatch(/HttpOnly/i);
    const byCookie = await older.client.post(
      '/api/user/login/2fa',
      { code: backupCodes[0] },
      {
        cookie: flowCookie!.split(';')[0]!,
      },
    );
    expect(byCookie.success).toBe(true);
  });

  it('takes each backup code once, and a regenerated set replaces the old one (for a TOTP code only)', async () => {
    const { client: carol, secret, backupCodes } = await userWithTwoFactor('carol');
    const first = await passwordStep('carol');
    // Lower case and without the dash, as people type them.
    const typed = backupCodes[0]!.replace('-', '').toLowerCase();
    expect(await secondStep(first.client, first.answer.data.flow_token, typed)).toMatchObject({ success: true });
    const second = await passwordStep('carol');
    expect(await secondStep(second.client, second.answer.data.flow_token, backupCodes[0]!)).toMatchObject({
      success: false,
      message: '验证码或备用码错误，请重试',
    });
    expect((await carol.get<TwoFactorStatusView>('/api/user/2fa/status')).data.backup_codes_remaining).toBe(9);

    expect(await carol.post('/api/user/2fa/backup_codes', { code: backupCodes[1] })).toMatchObject({ success: false });
    expect(await carol.post('/api/user/2fa/backup_codes', {})).toMatchObject({ success: false });
    const fresh = await carol.post<TwoFactorBackupCodesView>('/api/user/2fa/backup_codes', { code: codeOf(secret, 1) });
    expect(fresh.success).toBe(true);
    expect(fresh.data.backup_codes).toHaveLength(10);
    expect((await carol.get<TwoFactorStatusView>('/api/user/2fa/status')).data.backup_codes_remaining).toBe(10);

    const old = await passwordStep('carol');
    expect(await secondStep(old.client, old.answer.data.flow_token, backupCodes[2]!)).toMatchObject({ success: false });
    expect(await secondStep(old.client, old.answer.data.flow_token, fresh.data.backup_codes[0]!)).toMatchObject({
      success: true,
    });
  });

  it('locks the second step after five wrong codes: even a right code is refused and nothing changes', async () => {
    const { client: dave, secret } = await userWithTwoFactor('dave');
    const { client, answer } = await passwordStep('dave');
    for (let n = 0; n < 5; n += 1) {
      const wrong = await secondStep(client, answer.data.flow_token, wrongCodeOf(secret));
      expect(wrong).toMatchObject({ success: false, message: '验证码或备用码错误，请重试' });
    }
    const locked = await secondStep(client, answer.data.flow_token, codeOf(secret, 1));
    expect(locked.status).toBe(429);
    expect(locked.message).toMatch(/^验证码错误次数过多，请在 \d+ 秒后重试$/);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(200);
    expect(client.sessionCookie).toBe('');
    // Disabling is under the same lock.
    expect((await dave.post('/api/user/2fa/disable', { code: codeOf(secret, 1) })).status).toBe(429);
    const status = (await dave.get<TwoFactorStatusView>('/api/user/2fa/status')).data;
    expect(status).toMatchObject({ enabled: true, locked: true, backup_codes_remaining: 10 });

    // Once the lockout is over (five tries given back, as when its time has passed), a right code works.
    const record = (await server.ctx.repos.twoFas.find(dave.userId!))!;
    await server.ctx.repos.twoFas.unlock(dave.userId!, record.failedAttempts);
    expect(await secondStep(client, answer.data.flow_token, codeOf(secret, 1))).toMatchObject({ success: true });
  });

  it('turns off only with a right code (TOTP or backup); afterwards the password alone signs in', async () => {
    const { client: erin, secret, backupCodes } = await userWithTwoFactor('erin');
    expect(await erin.post('/api/user/2fa/disable', { code: wrongCodeOf(secret) })).toMatchObject({ success: false });
    expect(await erin.post('/api/user/2fa/disable', {})).toMatchObject({ success: false });
    expect((await erin.get<TwoFactorStatusView>('/api/user/2fa/status')).data.enabled).toBe(true);
    expect(await erin.post('/api/user/2fa/disable', { code: backupCodes[3] })).toMatchObject({
      success: true,
      message: '两步验证已禁用',
    });
    expect((await erin.get<TwoFactorStatusView>('/api/user/2fa/status')).data.enabled).toBe(false);
    expect(await server.ctx.repos.twoFas.unusedCodes(erin.userId!)).toEqual([]);
    const plain = await passwordStep('erin');
    expect(plain.answer.data).toMatchObject({ username: 'erin' });
    expect(plain.client.sessionCookie).not.toBe('');
    expect(await erin.post('/api/user/2fa/disable', { code: codeOf(secret, 1) })).toMatchObject({
      success: false,
      message: '用户未启用2FA',
    });
  });

  it('lets an admin reset a user’s 2FA (audited, sessions ended); users cannot call the admin routes', async () => {
    const { client: frank } = await userWithTwoFactor('frank');
    const grace = await signedInUser(server.baseUrl, server.ctx.repos, 'grace');
    expect(refusal(await grace.delete(`/api/user/${frank.userId}/2fa`))).toEqual(ROLE_REFUSED);
    expect(refusal(await grace.get('/api/user/2fa/stats'))).toEqual(ROLE_REFUSED);
    expect((await frank.get<TwoFactorStatusView>('/api/user/2fa/status')).data.enabled).toBe(true);
    // Each signed-in user reads only their own status: grace's says nothing of frank's.
    expect((await grace.get<TwoFactorStatusView>('/api/user/2fa/status')).data.enabled).toBe(false);
    const asFrank = await grace.get('/api/user/2fa/status', { 'new-api-user': String(frank.userId) });
    expect(asFrank.status).toBe(401);

    const stats = await root.get<TwoFactorStatsView>('/api/user/2fa/stats');
    expect(stats.data.enabled_users).toBeGreaterThanOrEqual(1);
    expect(stats.data.enabled_rate).toMatch(/^\d+\.\d%$/);

    // An admin cannot reset another admin (or root); root can.
    const admin = await signedInUser(server.baseUrl, server.ctx.repos, 'heidi');
    await server.ctx.repos.users.update(admin.userId!, { role: Role.Admin });
    expect(await admin.delete(`/api/user/${root.userId}/2fa`)).toMatchObject({ success: false });

    const reset = await admin.delete(`/api/user/${frank.userId}/2fa`);
    expect(reset).toMatchObject({ success: true, message: '用户2FA已被强制禁用' });
    expect((await frank.get('/api/user/self')).status).toBe(401);
    expect(await server.ctx.repos.twoFas.find(frank.userId!)).toBeUndefined();
    expect(await admin.delete(`/api/user/${frank.userId}/2fa`)).toMatchObject({ success: false });
    const { items } = await server.ctx.repos.auditLogs.list({ targetType: 'user' }, 0, 100);
    expect(items).toContainEqual(
      expect.objectContaining({ action: 'user.2fa_disable', actor_id: admin.userId, target_id: String(frank.userId) }),
    );
  });

  it('with AdminTwoFARequired, an admin without 2FA is refused on admin routes until it is set up', async () => {
    const { client: rootTwoFactor } = { client: root };
    const rootSetup = await rootTwoFactor.post<TwoFactorSetupView>('/api/user/2fa/setup');
    expect((await root.post('/api/user/2fa/enable', { code: codeOf(rootSetup.data.secret) })).success).toBe(true);
    expect((await root.put('/api/option/', { key: 'AdminTwoFARequired', value: 'true' })).success).toBe(true);

    const ivan = await signedInUser(server.baseUrl, server.ctx.repos, 'ivan');
    await server.ctx.repos.users.update(ivan.userId!, { role: Role.Admin });
    const refused = await ivan.get('/api/user/2fa/stats');
    expect(refused).toMatchObject({ success: false, message: '管理员账户须先启用两步验证，请在个人设置中完成设置' });
    expect((await ivan.get<TwoFactorStatusView>('/api/user/2fa/status')).data.setup_required).toBe(true);

    const setup = await ivan.post<TwoFactorSetupView>('/api/user/2fa/setup');
    expect((await ivan.post('/api/user/2fa/enable', { code: codeOf(setup.data.secret) })).success).toBe(true);
    expect((await ivan.get('/api/user/2fa/stats')).success).toBe(true);
    expect((await ivan.get<TwoFactorStatusView>('/api/user/2fa/status')).data.setup_required).toBe(false);
    // Ordinary users are not asked.
    const judy = await signedInUser(server.baseUrl, server.ctx.repos, 'judy');
    expect((await judy.get<TwoFactorStatusView>('/api/user/2fa/status')).data.setup_required).toBe(false);
    expect((await root.put('/api/option/', { key: 'AdminTwoFARequired', value: 'false' })).success).toBe(true);
  });
});
