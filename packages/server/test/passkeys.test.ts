import type { PasskeyStatusView, PublicStatus } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { SoftAuthenticator } from './helpers/soft-authenticator.js';

const dialects = await availableDialects();

const ORIGIN = 'http://localhost:5173';
// biome-ignore lint/suspicious/noExplicitAny: the options are the WebAuthn JSON the begin routes answer.
type Options = { options: { publicKey: any } };

describe.each(dialects)('passkeys on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  const setOption = async (key: string, value: string) =>
    expect((await root.put('/api/option/', { key, value })).success).toBe(true);

  /** Registers one passkey of `client` on `device` through the begin and finish routes. */
  const register = async (client: ApiClient, device: SoftAuthenticator, name?: string) => {
    const begin = await client.post<Options>('/api/user/passkey/register/begin');
    expect(begin.success).toBe(true);
    return client.post('/api/user/passkey/register/finish', { ...device.create(begin.data.options.publicKey), name });
  };

  const passkeysOf = async (client: ApiClient) => (await client.get<PasskeyStatusView>('/api/user/passkey')).data;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
  }, 60_000);
  afterAll(async () => server?.close());

  it('is off by default: the status says so and the ceremonies refuse', async () => {
    const status = await root.get<PublicStatus>('/api/status');
    expect(status.data).toMatchObject({ passkey_login: false, passkey_user_verification: 'preferred' });
    const anonymous = new ApiClient(server.baseUrl);
    expect(await anonymous.post('/api/user/passkey/login/begin')).toMatchObject({
      success: false,
      message: '管理员未启用 Passkey 登录',
    });
    expect(await root.post('/api/user/passkey/register/begin')).toMatchObject({ success: false });
    expect((await passkeysOf(root)).enabled).toBe(false);
  });

  it('registers several named passkeys, then signs in with one without a password', async () => {
    await setOption('passkey.enabled', 'true');
    await setOption('passkey.rp_id', 'localhost');
    await setOption('passkey.origins', ORIGIN);
    await setOption('passkey.allow_insecure_origin', 'true');
    const status = await root.get<PublicStatus>('/api/status');
    expect(status.data).toMatchObject({ passkey_login: true, passkey_rp_id: 'localhost', passkey_origins: ORIGIN });

    const alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    const laptop = new SoftAuthenticator(ORIGIN);
    const phone = new SoftAuthenticator(ORIGIN);
    expect(await register(alice, laptop, 'Laptop')).toMatchObject({ success: true, message: 'Passkey 注册成功' });
    expect((await register(alice, phone)).success).toBe(true);
    const listed = await passkeysOf(alice);
    expect(listed).toMatchObject({ enabled: true, last_used_at: null });
    expect(listed.passkeys.map((passkey) => passkey.name).sort()).toEqual(['Laptop', 'Passkey 2']);
    // The family's columns: ids and keys in standard base64, the user handle is the decimal id.
    const rows = await server.ctx.repos.passkeys.listByUser(alice.userId!);
    const made = [...laptop.credentials, ...phone.credentials].map((credential) => credential.id.toString('base64'));
    expect(rows.map((row) => row.credentialId).sort()).toEqual(made.sort());

    const visitor = new ApiClient(server.baseUrl);
    const begin = await visitor.post<Options>('/api/user/passkey/login/begin');
    expect(begin.data.options.publicKey.allowCredentials).toEqual([]);
    const signIn = await visitor.post<{ id: number; username: string }>(
      '/api/user/passkey/login/finish',
      phone.get(begin.data.options.publicKey),
    );
    expect(signIn).toMatchObject({ success: true, data: { id: alice.userId, username: 'alice' } });
    visitor.userId = signIn.data.id;
    expect((await visitor.get<{ username: string }>('/api/user/self')).data.username).toBe('alice');
    const after = await passkeysOf(visitor);
    expect(after.last_used_at).not.toBeNull();
    expect(after.passkeys.find((passkey) => passkey.name === 'Passkey 2')!.last_used_at).not.toBeNull();

    // Renaming and deleting one passkey leaves the other.
    const phoneKey = after.passkeys.find((passkey) => passkey.name === 'Passkey 2')!;
    expect((await alice.put(`/api/user/passkey/${phoneKey.id}`, { name: 'Phone' })).success).toBe(true);
    expect(await alice.put(`/api/user/passkey/${phoneKey.id}`, { name: ' ' })).toMatchObject({ success: false });
    expect((await passkeysOf(alice)).passkeys.map((passkey) => passkey.name).sort()).toEqual(['Laptop', 'Phone']);
    expect((await alice.delete(`/api/user/passkey/${phoneKey.id}`)).success).toBe(true);
    expect((await passkeysOf(alice)).passkeys.map((passkey) => passkey.name)).toEqual(['Laptop']);

    // The user's own check (secure verification) with the remaining one.
    const verify = await alice.post<Options>('/api/user/passkey/verify/begin');
    const verified = await alice.post('/api/user/passkey/verify/finish', laptop.get(verify.data.options.publicKey));
    expect(verified).toMatchObject({ success: true, message: 'Passkey 验证成功' });
  });

  it('refuses a replayed challenge, a replayed signature and a counter that does not move on', async () => {
    const carol = await signedInUser(server.baseUrl, server.ctx.repos, 'carol');
    const device = new SoftAuthenticator(ORIGIN);
    const begin = await carol.post<Options>('/api/user/passkey/register/begin');
    const answer = device.create(begin.data.options.publicKey);
    expect((await carol.post('/api/user/passkey/register/finish', answer)).success).toBe(true);
    // The same finish again: its challenge was used up.
    expect(await carol.post('/api/user/passkey/register/finish', answer)).toMatchObject({
      success: false,
      message: 'Passkey 请求已过期或已使用，请重试',
    });

    const visitor = new ApiClient(server.baseUrl);
    const first = await visitor.post<Options>('/api/user/passkey/login/begin');
    const assertion = device.get(first.data.options.publicKey);
    expect((await visitor.post('/api/user/passkey/login/finish', assertion)).success).toBe(true);
    // The same signed assertion again, first without a ceremony, then against a fresh challenge.
    const thief = new ApiClient(server.baseUrl);
    expect(await thief.post('/api/user/passkey/login/finish', assertion)).toMatchObject({
      success: false,
      message: 'Passkey 请求已过期或已使用，请重试',
    });
    await thief.post('/api/user/passkey/login/begin');
    expect(await thief.post('/api/user/passkey/login/finish', assertion)).toMatchObject({
      success: false,
      message: 'Passkey 验证失败，请重试或联系管理员',
    });
    // A cloned authenticator whose counter is behind the stored one.
    const again = await thief.post<Options>('/api/user/passkey/login/begin');
    const stale = device.get(again.data.options.publicKey, { counter: 1 });
    expect(await thief.post('/api/user/passkey/login/finish', stale)).toMatchObject({ success: false });
    expect(thief.sessionCookie).toBe('');
    // A challenge of one ceremony does not serve another.
    const register = await carol.post<Options>('/api/user/passkey/register/begin');
    expect(register.success).toBe(true);
    expect(
      await carol.post('/api/user/passkey/verify/finish', device.get(register.data.options.publicKey)),
    ).toMatchObject({
      success: false,
      message: 'Passkey 请求已过期或已使用，请重试',
    });
  });

  it('never lets one user’s passkey act for another', async () => {
    const dave = await signedInUser(server.baseUrl, server.ctx.repos, 'dave');
    const erin = await signedInUser(server.baseUrl, server.ctx.repos, 'erin');
    const daveDevice = new SoftAuthenticator(ORIGIN);
    const erinDevice = new SoftAuthenticator(ORIGIN);
    expect((await register(dave, daveDevice)).success).toBe(true);
    expect((await register(erin, erinDevice)).success).toBe(true);

    // Erin's verification answered with Dave's passkey.
    const verify = await erin.post<Options>('/api/user/passkey/verify/begin');
    const daves = daveDevice.get({ ...verify.data.options.publicKey, allowCredentials: [] });
    expect(await erin.post('/api/user/passkey/verify/finish', daves)).toMatchObject({ success: false });

    // A sign-in with Dave's passkey whose user handle claims Erin.
    const visitor = new ApiClient(server.baseUrl);
    const begin = await visitor.post<Options>('/api/user/passkey/login/begin');
    const erinHandle = Buffer.from(String(erin.userId)).toString('base64url');
    const claim = daveDevice.get(begin.data.options.publicKey, { userHandle: erinHandle });
    expect(await visitor.post('/api/user/passkey/login/finish', claim)).toMatchObject({ success: false });
    expect(visitor.sessionCookie).toBe('');

    // Erin cannot rename or delete Dave's passkey.
    const [davesKey] = (await passkeysOf(dave)).passkeys;
    expect(await erin.put(`/api/user/passkey/${davesKey!.id}`, { name: 'mine' })).toMatchObject({
      success: false,
      message: '该 Passkey 不存在',
    });
    expect((await erin.delete(`/api/user/passkey/${davesKey!.id}`)).success).toBe(false);
    expect((await passkeysOf(dave)).passkeys).toHaveLength(1);

    // A disabled user's passkey signs nobody in.
    await server.ctx.repos.users.update(dave.userId!, { status: 2 });
    const second = await visitor.post<Options>('/api/user/passkey/login/begin');
    const refused = await visitor.post('/api/user/passkey/login/finish', daveDevice.get(second.data.options.publicKey));
    expect(refused.success).toBe(false);
    expect(visitor.sessionCookie).toBe('');
  });

  it('removes every passkey with the family’s DELETE, and lets an admin reset a user’s', async () => {
    const frank = await signedInUser(server.baseUrl, server.ctx.repos, 'frank');
    expect((await register(frank, new SoftAuthenticator(ORIGIN))).success).toBe(true);
    expect((await register(frank, new SoftAuthenticator(ORIGIN))).success).toBe(true);
    expect(await frank.delete(`/api/user/${frank.userId}/reset_passkey`)).toMatchObject({ success: false });
    expect((await passkeysOf(frank)).passkeys).toHaveLength(2);
    expect(await root.delete(`/api/user/${frank.userId}/reset_passkey`)).toMatchObject({
      success: true,
      message: 'Passkey 已重置',
    });
    expect(await passkeysOf(frank)).toEqual({ enabled: false, last_used_at: null, passkeys: [] });
    expect(await root.delete(`/api/user/${frank.userId}/reset_passkey`)).toMatchObject({
      success: false,
      message: '该用户尚未绑定 Passkey',
    });

    expect((await register(frank, new SoftAuthenticator(ORIGIN))).success).toBe(true);
    expect(await frank.delete('/api/user/passkey')).toMatchObject({ success: true, message: 'Passkey 已解绑' });
    expect((await passkeysOf(frank)).enabled).toBe(false);
  });

  it('refuses a page of another origin', async () => {
    const grace = await signedInUser(server.baseUrl, server.ctx.repos, 'grace');
    const phishing = new SoftAuthenticator('http://localhost:6666');
    expect(await register(grace, phishing)).toMatchObject({ success: false });
    expect((await passkeysOf(grace)).enabled).toBe(false);
  });
});
