import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, setupAndLogin } from './helpers/client.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

// The family's console of the spec's era (new-api v0.6, Semi UI) against this server, call by call, with the request
// shapes that console sends: its list calls count `p` from 0 and read bare arrays (API_LIST_SHAPE=array), its
// registration sends `aff_code: null` without an invitation, its channel and token editors send back the whole
// object they loaded. Scripts written for today's new-api (page objects) are checked against the default server.

type Row = Record<string, unknown>;
const NO_STORE = { 'cache-control': 'no-store' };

describe("the family's v0.6 console against API_LIST_SHAPE=array", () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { API_LIST_SHAPE: 'array' });
    root = await setupAndLogin(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('registers without an invitation (aff_code null), signs in and reads itself', async () => {
    const visitor = new ApiClient(server.baseUrl);
    const registered = await visitor.post('/api/user/register?turnstile=', {
      username: 'newcomer',
      password: 'newcomer-pass',
      password2: 'newcomer-pass',
      email: '',
      verification_code: '',
      aff_code: null,
    });
    expect([registered.success, registered.message]).toEqual([true, '注册成功！']);
    const login = await visitor.post<Row>('/api/user/login?turnstile=', {
      username: 'newcomer',
      password: 'newcomer-pass',
    });
    expect(login.success).toBe(true);
    visitor.userId = Number(login.data.id);
    const self = await visitor.get<Row>('/api/user/self', NO_STORE);
    expect(self.data).toMatchObject({ username: 'newcomer', role: 1, status: 1 });
  });

  it('changes the password with original_password and password, and the old one stops working', async () => {
    const user = new ApiClient(server.baseUrl);
    await user.post('/api/user/register', { username: 'changer', password: 'changer-old1', aff_code: null });
    await user.login('changer', 'changer-old1');
    const changed = await user.put('/api/user/self', { original_password: 'changer-old1', password: 'changer-new1' });
    expect(changed.success, changed.message).toBe(true);
    const again = new ApiClient(server.baseUrl);
    expect((await again.post('/api/user/login', { username: 'changer', password: 'changer-old1' })).success).toBe(
      false,
    );
    await again.login('changer', 'changer-new1');
  });

  it("refuses the v0.6 console's password change, which sends no original password, in words its user can act on", async () => {
    const user = new ApiClient(server.baseUrl);
    await user.post('/api/user/register', { username: 'oldconsole', password: 'oldconsole-1', aff_code: null });
    await user.login('oldconsole', 'oldconsole-1');
    // What that console's personal page sends: the whole user, the new password, and no original_password.
    const answer = await user.put('/api/user/self', {
      username: 'oldconsole',
      display_name: '',
      password: 'oldconsole-2',
    });
    expect([answer.status, answer.success]).toEqual([200, false]);
    expect(answer.message).toContain('忘记密码');
    const again = new ApiClient(server.baseUrl);
    await again.login('oldconsole', 'oldconsole-1');
  });

  it('lists tokens right after sign-in as a bare array with p from 0, and edits one by sending it back whole', async () => {
    for (const name of ['first', 'second', 'third']) {
      const created = await root.post('/api/token/', {
        name,
        remain_quota: 500000,
        expired_time: -1,
        unlimited_quota: false,
        model_limits_enabled: false,
        model_limits: '',
        allow_ips: '',
        group: '',
      });
      expect(created.success, created.message).toBe(true);
    }
    const first = await root.get<Row[]>('/api/token/?p=0&size=2');
    expect(Array.isArray(first.data)).toBe(true);
    expect(first.data).toHaveLength(2);
    const second = await root.get<Row[]>('/api/token/?p=1&size=2');
    expect(second.data).toHaveLength(1);
    expect(second.data[0]!.id).not.toBe(first.data[0]!.id);
    const found = await root.get<Row[]>('/api/token/search?keyword=sec&token=');
    expect(found.data.map((token) => token.name)).toEqual(['second']);

    const loaded = await root.get<Row>(`/api/token/${first.data[0]!.id}`);
    const edited = await root.put('/api/token/', { ...loaded.data, name: 'renamed', remain_quota: 1000 });
    expect(edited.success, edited.message).toBe(true);
    expect((await root.get<Row>(`/api/token/${first.data[0]!.id}`)).data).toMatchObject({
      name: 'renamed',
      remain_quota: 1000,
    });
  });

  it('lists channels as a bare array and edits one by sending back what it loaded (models and groups joined)', async () => {
    const created = await root.post('/api/channel/', {
      mode: 'single',
      channel: {
        type: 1,
        name: 'family-edit',
        key: 'sk-family',
        base_url: '',
        other: '',
        models: 'gpt-4o,gpt-4o-mini',
        group: 'default',
        model_mapping: null,
        status_code_mapping: null,
        tag: null,
        priority: 0,
        weight: 0,
        auto_ban: 1,
        setting: null,
        param_override: null,
        header_override: null,
        groups: ['default'],
      },
    });
    expect(created.success, created.message).toBe(true);
    const list = await root.get<Row[]>('/api/channel/?p=0&page_size=10&id_sort=false&tag_mode=false');
    expect(Array.isArray(list.data)).toBe(true);
    const row = list.data.find((channel) => channel.name === 'family-edit')!;
    expect(row).toBeDefined();
    const loaded = (await root.get<Row>(`/api/channel/${row.id}`)).data;
    // A channel read back gives "" for an optional text that was sent as null.
    expect(loaded).toMatchObject({ model_mapping: '', status_code_mapping: '' });
    const models = String(loaded.models).split(',');
    const groups = String(loaded.group).split(',');
    const edited = await root.put('/api/channel/', {
      ...loaded,
      models: [...models, 'o3-mini'].join(','),
      group: groups.join(','),
      groups,
      key: '',
      auto_ban: 1,
      priority: 5,
      id: row.id,
    });
    expect(edited.success, edited.message).toBe(true);
    const after = (await root.get<Row>(`/api/channel/${row.id}`)).data;
    expect(after).toMatchObject({ models: 'gpt-4o,gpt-4o-mini,o3-mini', priority: 5 });
    const search = await root.get<Row[]>('/api/channel/search?keyword=family&group=&model=&id_sort=false');
    expect(search.data.map((channel) => channel.name)).toEqual(['family-edit']);
    const fixed = await root.post<{ success: number; fails: number }>('/api/channel/fix');
    expect(fixed.data).toMatchObject({ fails: 0 });
    expect(fixed.data.success).toBeGreaterThan(0);
  });

  it('opens the task and drawing logs with empty filters', async () => {
    for (const path of [
      '/api/task/self?p=0&task_id=&start_timestamp=&end_timestamp=',
      '/api/task/?p=0&channel_id=&task_id=&start_timestamp=&end_timestamp=',
      '/api/mj/self/?p=0&mj_id=&start_timestamp=&end_timestamp=',
      '/api/mj/?p=0&channel_id=&mj_id=&start_timestamp=NaN&end_timestamp=NaN',
    ]) {
      const answer = await root.get<unknown[]>(path);
      expect([answer.success, Array.isArray(answer.data)], path).toEqual([true, true]);
    }
  });

  it('shows the online top-up form when Epay is configured, prices an amount and opens the payment', async () => {
    expect((await root.get<Row>('/api/status')).data.enable_online_topup).toBe(false);
    for (const [key, value] of [
      ['ServerAddress', server.baseUrl],
      ['PayAddress', 'https://pay.example.com'],
      ['EpayId', '1001'],
      ['EpayKey', 'epay-secret'],
    ]) {
      expect((await root.put('/api/option/', { key, value })).success).toBe(true);
    }
    const status = (await root.get<Row>('/api/status')).data;
    expect(status).toMatchObject({ enable_online_topup: true, enable_batch_update: true, discord_oauth: false });
    const amount = await root.post('/api/user/amount', { amount: 10, top_up_code: '' });
    expect(amount.success, amount.message).toBe(true);
    const pay = await fetch(`${server.baseUrl}/api/user/pay`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: root.sessionCookie,
        'new-api-user': String(root.userId),
      },
      body: JSON.stringify({ amount: 10, top_up_code: '', payment_method: 'zfb' }),
    });
    const body = (await pay.json()) as { success: boolean; url: string; data: Row };
    expect(body.success).toBe(true);
    expect(body.url).toBe('https://pay.example.com/submit.php');
    expect(body.data).toMatchObject({ pid: '1001', type: 'alipay' });
  });

  it('keeps a stored secret when the console saves its untouched field without a value, and answers success', async () => {
    const saved = await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-secret' });
    expect(saved.success).toBe(true);
    // The family's v0.6 console sends {"key":"WorkerValidKey"} for an untouched secret when it saves the settings.
    for (const body of [{ key: 'SMTPToken' }, { key: 'SMTPToken', value: null }, { key: 'WorkerValidKey' }]) {
      const answer = await root.put('/api/option/', body);
      expect([answer.success, answer.message]).toEqual([true, '保存成功']);
    }
    expect(server.ctx.options.get('SMTPToken')).toBe('smtp-secret');
    // Any other option without a value is still refused, changing nothing.
    const before = server.ctx.options.get('SystemName');
    const refused = await root.put('/api/option/', { key: 'SystemName' });
    expect([refused.success, refused.message]).toEqual([false, '未提供配置值，未做任何修改']);
    expect(server.ctx.options.get('SystemName')).toBe(before);
  });

  it('refuses a role it lacks with HTTP 200 and success false, as the family does', async () => {
    const user = new ApiClient(server.baseUrl);
    await user.post('/api/user/register', { username: 'plainuser', password: 'plainuser-1', aff_code: null });
    await user.login('plainuser', 'plainuser-1');
    const refused = await user.get('/api/channel/?p=0&page_size=10');
    expect([refused.status, refused.success, refused.message]).toEqual([200, false, '无权进行此操作，权限不足']);
  });
});

describe("scripts written for today's new-api against the default server", () => {
  let server: TestServer;
  let root: ApiClient;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    root = await setupAndLogin(server.baseUrl);
    for (const name of ['a', 'b', 'c']) await root.post('/api/token/', { name, remain_quota: 1, expired_time: -1 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('pages tokens and channels as {items, total, page, page_size}, p from 1 (0 read as 1), size or page_size', async () => {
    for (const path of ['/api/token/?p=0&page_size=2', '/api/token/?p=1&size=2']) {
      const answer = await root.get<{ items: Row[]; total: number; page: number; page_size: number }>(path);
      expect(answer.data, path).toMatchObject({ total: 3, page: 1, page_size: 2 });
      expect(answer.data.items, path).toHaveLength(2);
    }
    expect((await root.get<{ items: Row[] }>('/api/token/?p=2&size=2')).data.items).toHaveLength(1);
    const channels = await root.get<{ items: Row[]; total: number }>('/api/channel/?p=1&page_size=10');
    expect(channels.data).toMatchObject({ items: [], total: 0 });
  });

  it('answers either shape to a caller that asks for it with shape=array or shape=page', async () => {
    expect(Array.isArray((await root.get('/api/token/?p=0&size=10&shape=array')).data)).toBe(true);
    const legacy = await startTestServer('sqlite', { API_LIST_SHAPE: 'array' }, undefined);
    try {
      const admin = await setupAndLogin(legacy.baseUrl);
      const page = await admin.get<{ items: Row[] }>('/api/channel/?p=1&page_size=10&shape=page');
      expect(page.data.items).toEqual([]);
    } finally {
      await legacy.close();
    }
  });

  it('reads an unparseable number in a list filter as no filter', async () => {
    const all = await root.get<{ total: number }>('/api/log/?p=1&page_size=10');
    const loose = await root.get<{ total: number }>('/api/log/?p=x&page_size=y&type=all&channel=abc&start_timestamp=');
    expect(loose.success).toBe(true);
    expect(loose.data.total).toBe(all.data.total);
  });
});

describe('every call of both spec documents, with the family console’s request shapes', () => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let user: ApiClient;
  let channelId: number;

  /** A call the console treats as done: HTTP 200, success true, the envelope's three fields. */
  const done = async <T = unknown>(
    client: ApiClient,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ) => {
    const answer = await client.call<T>(method, path, body, NO_STORE);
    expect([answer.status, answer.success, typeof answer.message], `${method} ${path}: ${answer.message}`).toEqual([
      200,
      true,
      'string',
    ]);
    return answer.data;
  };
  /** A call refused as a business failure: HTTP 200, success false, a message to show. */
  const refused = async (client: ApiClient, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const answer = await client.call(method, path, body, NO_STORE);
    expect([answer.status, answer.success], `${method} ${path}`).toEqual([200, false]);
    expect(answer.message, `${method} ${path}`).toMatch(/\S/);
  };

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer('sqlite', { API_LIST_SHAPE: 'array' });
    root = await setupAndLogin(server.baseUrl);
    // The mock upstream listens on 127.0.0.1: model lists and balances may reach it only with this on.
    await root.put('/api/option/', { key: 'fetch_setting.allow_private_ip', value: 'true' });
    const visitor = new ApiClient(server.baseUrl);
    await visitor.post('/api/user/register', { username: 'walker', password: 'walker-pass', aff_code: null });
    await visitor.login('walker', 'walker-pass');
    user = visitor;
    const created = await root.post<number[]>('/api/channel/', {
      mode: 'single',
      channel: { type: 1, name: 'walk', key: 'sk-walk', base_url: mock.baseUrl, models: 'gpt-4o', group: 'default' },
    });
    channelId = created.data[0]!;
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });

  it('users (spec 000 §7)', async () => {
    const page = await done<{ items: Row[]; page: number; total: number }>(root, 'GET', '/api/user/?p=0&page_size=10');
    expect(page).toMatchObject({ page: 1, total: 2 });
    await done(root, 'GET', '/api/user/search?keyword=walk&group=&p=0&page_size=10');
    await done(root, 'POST', '/api/user/', { username: 'made', display_name: 'Made', password: 'made-pass1' });
    const made = (await done<{ items: Row[] }>(root, 'GET', '/api/user/search?keyword=made')).items[0]!;
    expect(await done(root, 'POST', '/api/user/manage', { id: made.id, action: 'promote' })).toMatchObject({
      role: 10,
      status: 1,
    });
    const detail = await done<Row>(root, 'GET', `/api/user/${made.id}`);
    await done(root, 'PUT', '/api/user/', { ...detail, id: made.id, quota: 12345, password: '' });
    expect((await done<Row>(root, 'GET', `/api/user/${made.id}`)).quota).toBe(12345);
    await done(user, 'GET', '/api/user/self');
    await done(user, 'PUT', '/api/user/self', { display_name: 'Walker' });
    expect(await done(root, 'GET', '/api/group/')).toEqual(expect.arrayContaining(['default']));
    expect(typeof (await done(user, 'GET', '/api/user/token'))).toBe('string');
    expect(typeof (await done(user, 'GET', '/api/user/aff'))).toBe('string');
    await refused(user, 'POST', '/api/user/aff_transfer', { quota: 1000000 });
    expect(Array.isArray(await done(user, 'GET', '/api/user/models'))).toBe(true);
    await done(user, 'PUT', '/api/user/setting', {
      notify_type: 'email',
      quota_warning_threshold: 500000,
      webhook_url: '',
      webhook_secret: '',
      notification_email: '',
      accept_unset_model_ratio_model: false,
    });
    await done(root, 'POST', '/api/user/manage', { id: made.id, action: 'delete' });
  });

  it('authentication (spec 000 §7): what is not configured answers as a business failure', async () => {
    const visitor = new ApiClient(server.baseUrl);
    await refused(visitor, 'GET', '/api/verification?email=someone@example.com&turnstile=');
    await refused(visitor, 'GET', '/api/oauth/wechat?code=abc');
    await refused(user, 'GET', '/api/oauth/email/bind?email=someone@example.com&code=000000');
    await refused(user, 'GET', '/api/oauth/wechat/bind?code=abc');
    await refused(
      visitor,
      'GET',
      '/api/oauth/telegram/login?id=1&first_name=a&last_name=b&username=c&photo_url=&auth_date=1&hash=x&lang=zh',
    );
    expect(typeof (await done(visitor, 'GET', '/api/oauth/state?aff='))).toBe('string');
    await refused(visitor, 'GET', '/api/oauth/github?code=abc&state=xyz');
    await refused(visitor, 'GET', '/api/reset_password?email=nobody@example.com&turnstile=');
    await refused(visitor, 'POST', '/api/user/reset', { email: 'nobody@example.com', token: 'nope' });
  });

  it('options, logs and the model catalogue (spec 000 §7, 001 §7)', async () => {
    const options = await done<Array<{ key: string; value: string }>>(root, 'GET', '/api/option/');
    expect(options.find((option) => option.key === 'SystemName')).toBeDefined();
    await done(root, 'PUT', '/api/option/', { key: 'SystemName', value: 'Walked' });
    await done(root, 'POST', '/api/option/rest_model_ratio');
    expect(await done(root, 'DELETE', `/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) - 86400}`)).toEqual(
      expect.any(Number),
    );
    expect(Object.keys(await done<Row>(root, 'GET', '/api/models'))).toContain('1');
  });

  it('channels (spec 001 §7)', async () => {
    expect(await done(root, 'GET', '/api/channel/models_enabled')).toContain('gpt-4o');
    await done(root, 'GET', '/api/channel/models');
    const tested = await root.get(`/api/channel/test/${channelId}?model=gpt-4o`);
    expect(tested.success, tested.message).toBe(true);
    await done(root, 'GET', '/api/channel/test');
    await root.get(`/api/channel/update_balance/${channelId}/`);
    await done(root, 'GET', '/api/channel/update_balance');
    expect(await done(root, 'GET', `/api/channel/fetch_models/${channelId}`)).toEqual(expect.any(Array));
    await done(root, 'POST', '/api/channel/fetch_models', { base_url: mock.baseUrl, type: 1, key: 'sk-walk' });
    await done(root, 'PUT', '/api/channel/', { id: channelId, status: 1, priority: 3, weight: 2 });
    await done(root, 'POST', '/api/channel/batch/tag', { ids: [channelId], tag: 'walkers' });
    await done(root, 'PUT', '/api/channel/tag', {
      tag: 'walkers',
      new_tag: 'walkers',
      model_mapping: null,
      groups: 'default',
      models: 'gpt-4o',
      priority: 1,
      weight: 1,
    });
    await done(root, 'POST', '/api/channel/tag/disabled', { tag: 'walkers' });
    await done(root, 'POST', '/api/channel/tag/enabled', { tag: 'walkers' });
    const spare = (await root.post<number[]>('/api/channel/', { type: 1, name: 'spare', key: 'k', models: 'x' }))
      .data[0];
    await done(root, 'PUT', '/api/channel/', { id: spare, status: 2 });
    expect(await done(root, 'DELETE', '/api/channel/disabled')).toBe(1);
    const third = (await root.post<number[]>('/api/channel/', { type: 1, name: 'third', key: 'k', models: 'x' }))
      .data[0];
    expect(await done(root, 'POST', '/api/channel/batch', { ids: [third] })).toBe(1);
    const fourth = (await root.post<number[]>('/api/channel/', { type: 1, name: 'fourth', key: 'k', models: 'x' }))
      .data[0];
    await done(root, 'DELETE', `/api/channel/${fourth}/`);
  });

  it('tokens, redemptions and the wallet (spec 001 §7)', async () => {
    await done(user, 'POST', '/api/token/', {
      name: 'walk-key',
      remain_quota: 0,
      expired_time: -1,
      unlimited_quota: true,
    });
    const [token] = await done<Row[]>(user, 'GET', '/api/token/?p=0&size=10');
    await done(user, 'PUT', '/api/token/?status_only=true', { id: token!.id, status: 2 });
    expect((await done<Row>(user, 'GET', `/api/token/${token!.id}`)).status).toBe(2);
    expect(await done<Row>(user, 'GET', '/api/user/self/groups')).toHaveProperty('default');
    await done(user, 'DELETE', `/api/token/${token!.id}/`);

    const keys = await done<string[]>(root, 'POST', '/api/redemption/', { name: 'walk', quota: 1000, count: 2 });
    expect(keys).toHaveLength(2);
    const codes = await done<{ items: Row[]; page: number; total: number }>(
      root,
      'GET',
      '/api/redemption/?p=0&page_size=10',
    );
    expect(codes).toMatchObject({ page: 1, total: 2 });
    await done(root, 'GET', '/api/redemption/search?keyword=walk&p=0&page_size=10');
    const code = await done<Row>(root, 'GET', `/api/redemption/${codes.items[0]!.id}`);
    await done(root, 'PUT', '/api/redemption/', { ...code, name: 'walked' });
    await done(root, 'PUT', '/api/redemption/?status_only=true', { id: code.id, status: 2 });
    await done(root, 'PUT', '/api/redemption/?status_only=true', { id: code.id, status: 1 });
    const before = Number((await done<Row>(user, 'GET', '/api/user/self')).quota);
    await done(user, 'POST', '/api/user/topup', { key: keys[0] });
    expect(Number((await done<Row>(user, 'GET', '/api/user/self')).quota)).toBe(before + 1000);
    await done(root, 'DELETE', `/api/redemption/${codes.items[1]!.id}/`);
  });

  it('logs, pricing, setup and status (spec 001 §7)', async () => {
    const filters = 'type=0&token_name=&model_name=&start_timestamp=0&end_timestamp=9999999999&group=';
    expect(await done(root, 'GET', `/api/log/?p=1&page_size=10&${filters}&username=&channel=`)).toMatchObject({
      page: 1,
      page_size: 10,
      total: expect.any(Number),
      items: expect.any(Array),
    });
    await done(user, 'GET', `/api/log/self/?p=1&page_size=10&${filters}`);
    expect(await done(root, 'GET', `/api/log/stat?${filters}&username=&channel=`)).toMatchObject({
      quota: expect.any(Number),
      rpm: expect.any(Number),
      tpm: expect.any(Number),
    });
    await done(user, 'GET', `/api/log/self/stat?${filters}`);
    const pricing = await fetch(`${server.baseUrl}/api/pricing`).then((response) => response.json());
    expect(pricing).toMatchObject({ success: true, data: expect.any(Array), group_ratio: expect.any(Object) });
    expect(pricing).toHaveProperty('usable_group');
    expect(await done(new ApiClient(server.baseUrl), 'GET', '/api/setup')).toMatchObject({ status: true });
    await done(new ApiClient(server.baseUrl), 'GET', '/api/status');
    await done(user, 'GET', '/api/user/logout');
  });
});
