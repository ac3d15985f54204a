import { formatPeriodEnd, periodBounds } from '@gateway/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import {
  PER_CALL_MODEL,
  PER_CALL_QUOTA,
  priceCallModel,
  rawChat,
  refusalText,
  setClock,
  statusCounts,
} from './helpers/limits.js';
import { addChannel, addToken } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { type MockUpstream, startMockUpstream } from './mock-upstream/index.js';

interface TokenItem extends Record<string, unknown> {
  id: number;
  name: string;
  key: string;
}

/** The start of a calendar minute far from any other test's, plus `offset` ms. */
const minute = (index: number, offset = 0) => (30_000_000 + index) * 60_000 + offset;

const dialects = await availableDialects();

describe.each(dialects)('limits and budgets per key, per user and per group on one node (%s)', (dialect) => {
  let server: TestServer;
  let mock: MockUpstream;
  let root: ApiClient;
  let users = 0;

  const tokenNamed = async (owner: ApiClient, name: string): Promise<TokenItem> => {
    const list = await owner.get<{ items: TokenItem[] }>(`/api/token/search?keyword=${encodeURIComponent(name)}`);
    const found = list.data.items.find((item) => item.name === name);
    if (!found) throw new Error(`no token ${name}`);
    return found;
  };
  /** An ordinary user with quota to spend, and the admin edit that sets their limits. */
  const newUser = async () => {
    const name = `limited-${++users}-${Date.now().toString(36)}`;
    const client = await signedInUser(server.baseUrl, server.ctx.repos, name);
    await server.ctx.repos.users.update(client.userId!, { quota: 1000 * PER_CALL_QUOTA });
    const setLimits = async (limits: Record<string, unknown>) =>
      root.put('/api/user/', {
        id: client.userId,
        username: name,
        display_name: '',
        group: 'default',
        quota: 1000 * PER_CALL_QUOTA,
        ...limits,
      });
    return { client, setLimits };
  };

  beforeAll(async () => {
    mock = await startMockUpstream();
    server = await startTestServer(dialect, { BATCH_UPDATE_INTERVAL: '60' });
    root = await setupAndLogin(server.baseUrl);
    await addChannel(root, { type: 1, key: 'sk-upstream', base_url: mock.baseUrl, models: PER_CALL_MODEL });
    await priceCallModel(root);
  });
  afterAll(async () => {
    await server?.close();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('stores the limit fields of a token, refuses bad values by name and changes nothing then', async () => {
    setClock([server], minute(0));
    const fields = { rpm_limit: 10, tpm_limit: 2000, concurrency_limit: 2, budget_period: 'day', budget_quota: 5000 };
    expect((await root.post('/api/token/', { name: 'with-limits', ...fields })).success).toBe(true);
    const stored = await tokenNamed(root, 'with-limits');
    expect(stored).toMatchObject({ ...fields, budget_used: 0 });
    expect(stored.budget_reset_time).toBe(periodBounds('day', minute(0)).end / 1000);

    const edit = { id: stored.id, name: 'with-limits', unlimited_quota: true };
    const refusals: Array<[string, unknown, string]> = [
      ['rpm_limit', -1, '每分钟请求数必须是不小于 0 的整数（留空表示不单独限制）'],
      ['tpm_limit', 1.5, '每分钟 token 数必须是不小于 0 的整数（留空表示不单独限制）'],
      ['concurrency_limit', 'two', '并发请求数必须是不小于 0 的整数（留空表示不单独限制）'],
      ['budget_period', 'year', '预算周期只能是 day、week、month 或留空'],
      ['budget_quota', -5, '预算额度必须是不小于 0 的整数'],
    ];
    for (const [field, value, message] of refusals) {
      expect(await root.put('/api/token/', { ...edit, rpm_limit: 3, [field]: value })).toMatchObject({
        success: false,
        message,
      });
    }
    const noAmount = await root.put('/api/token/', { ...edit, budget_period: 'week', budget_quota: 0 });
    expect(noAmount).toMatchObject({ success: false, message: '设置了预算周期时，预算额度必须大于 0' });
    const english = await root.put('/api/token/', { ...edit, tpm_limit: -2 }, { 'accept-language': 'en' });
    expect(english.message).toBe('Tokens per minute must be a whole number of at least 0 (empty: no limit of its own)');
    // Nothing of the refused edits reached the token, not even the valid rpm_limit sent beside a bad field.
    expect(await tokenNamed(root, 'with-limits')).toMatchObject({ ...fields, unlimited_quota: false });

    // An edit without the fields (a script written for the family) keeps them; null clears one.
    expect((await root.put('/api/token/', edit)).success).toBe(true);
    expect(await tokenNamed(root, 'with-limits')).toMatchObject({ ...fields, unlimited_quota: true });
    expect((await root.put('/api/token/', { ...edit, rpm_limit: null, budget_period: '' })).success).toBe(true);
    expect(await tokenNamed(root, 'with-limits')).toMatchObject({
      rpm_limit: null,
      tpm_limit: 2000,
      concurrency_limit: 2,
      budget_period: '',
      budget_used: 0,
      budget_reset_time: 0,
    });
  });

  it('requests per minute: of 100 concurrent requests exactly 10 are served, 90 refused with Retry-After', async () => {
    setClock([server], minute(1, 15_000));
    const key = await addToken(root, { rpm_limit: 10, unlimited_quota: true });
    const answers = await Promise.all(Array.from({ length: 100 }, () => rawChat(server, key)));
    expect(statusCounts(answers)).toEqual({ 200: 10, 429: 90 });
    expect(mock.requests).toHaveLength(10);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      // The fixed window ends 45 s after 15 s into the minute.
      expect(refused.retryAfter).toBe('45');
      expect(refused.body.error).toMatchObject({ type: 'new_api_error', code: 'rate_limit_exceeded' });
      expect(refusalText(refused)).toBe('The API key has reached its limit of 10 requests per minute; retry in 45 s');
    }
    // The next minute is a new window.
    setClock([server], minute(2));
    expect((await rawChat(server, key)).status).toBe(200);
  });

  it("answers a refusal in the client's own error shape: Claude's on /v1/messages, Google's on Gemini routes", async () => {
    setClock([server], minute(3, 30_000));
    const key = await addToken(root, { rpm_limit: 1, unlimited_quota: true });
    expect((await rawChat(server, key)).status).toBe(200);
    const english = await rawChat(server, key, {}, { 'accept-language': 'en' });
    expect(english.status).toBe(429);
    expect(refusalText(english)).toBe('The API key has reached its limit of 1 requests per minute; retry in 30 s');

    const claude = await fetch(`${server.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
        'accept-language': 'en',
      },
      body: JSON.stringify({ model: PER_CALL_MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(claude.status).toBe(429);
    expect(claude.headers.get('retry-after')).toBe('30');
    const claudeBody = (await claude.json()) as { type: string; error: { type: string; message: string } };
    expect(claudeBody.type).toBe('error');
    expect(claudeBody.error.type).toBe('rate_limit_error');
    expect(claudeBody.error.message).toMatch(
      /^The API key has reached its limit of 1 requests per minute; retry in 30 s/,
    );

    const gemini = await fetch(`${server.baseUrl}/v1beta/models/${PER_CALL_MODEL}:generateContent?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBe(429);
    expect(gemini.headers.get('retry-after')).toBe('30');
    const geminiBody = (await gemini.json()) as { error: { code: number; status: string; message: string } };
    expect(geminiBody.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(geminiBody.error.message).toMatch(
      /^The API key has reached its limit of 1 requests per minute; retry in 30 s/,
    );
    expect(mock.requests).toHaveLength(1);
  });

  it('tokens per minute: reserves the estimate, settles to the billed count, hands it back on failure', async () => {
    setClock([server], minute(4, 1_000));
    const key = await addToken(root, { tpm_limit: 30, unlimited_quota: true });
    mock.setDefault('openai.chat', { kind: 'ok', usage: { prompt: 5, completion: 5 } });
    // Estimate: prompt 3 + (3 + ⌈11 / 4⌉) = 9 tokens, plus max_tokens 10 = 19; billed: 5 + 5 = 10.
    const ask = { max_tokens: 10 };
    mock.enqueue('openai.chat', { kind: 'status', status: 400, message: 'bad request upstream' });
    expect((await rawChat(server, key, ask)).status).toBe(400);
    // The failed request's 19 went back: 0 + 19 fits, settles to 10.
    expect((await rawChat(server, key, ask)).status).toBe(200);
    // 10 + 19 = 29 fits only because the first was settled at 10 (two estimates, 38, would not).
    expect((await rawChat(server, key, ask)).status).toBe(200);
    // 20 + 19 = 39 does not.
    const refused = await rawChat(server, key, ask);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('59');
    expect(refusalText(refused)).toBe('The API key has reached its limit of 30 tokens per minute; retry in 59 s');
    // A new window takes one request larger than the limit (it would never fit otherwise), then nothing more.
    setClock([server], minute(5));
    mock.enqueue('openai.chat', { kind: 'ok', usage: { prompt: 20, completion: 20 } });
    expect((await rawChat(server, key, { max_tokens: 100 })).status).toBe(200);
    expect((await rawChat(server, key, ask)).status).toBe(429);
    expect(mock.requests).toHaveLength(4);
  });

  it('concurrent requests per user: with a slow upstream exactly 3 of 20 run, and a finished one frees its slot', async () => {
    setClock([server], minute(6));
    const { client, setLimits } = await newUser();
    expect((await setLimits({ concurrency_limit: 3 })).success).toBe(true);
    const key = await addToken(client, { unlimited_quota: true });
    mock.setDefault('openai.chat', { kind: 'ok', delayMs: 1500 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => rawChat(server, key)));
    expect(statusCounts(answers)).toEqual({ 200: 3, 429: 17 });
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.retryAfter).toBe('1');
    expect(refusalText(refused)).toBe(
      'The user has reached its limit of 3 concurrent requests; retry when one of them has finished',
    );
    mock.setDefault('openai.chat', null);
    const after = await Promise.all(Array.from({ length: 3 }, () => rawChat(server, key)));
    expect(statusCounts(after)).toEqual({ 200: 3 });
  });

  it("group defaults apply to the user's requests unless the user has a value; a token's own value adds to it", async () => {
    setClock([server], minute(7));
    const bad = await root.put('/api/option/', { key: 'GroupLimitDefaults', value: '{"default": {"rpm": -1}}' });
    expect(bad).toMatchObject({ success: false });
    expect(bad.message).toContain('GroupLimitDefaults 必须是 JSON 对象');
    const saved = await root.put('/api/option/', { key: 'GroupLimitDefaults', value: '{"default": {"rpm": 2}}' });
    expect(saved.success).toBe(true);
    try {
      const { client, setLimits } = await newUser();
      const first = await addToken(client, { unlimited_quota: true });
      const second = await addToken(client, { unlimited_quota: true });
      // The default counts all of the user's requests together, whichever token carries them.
      expect((await rawChat(server, first)).status).toBe(200);
      expect((await rawChat(server, second)).status).toBe(200);
      const refused = await rawChat(server, first);
      expect(refusalText(refused)).toBe('The user has reached its limit of 2 requests per minute; retry in 60 s');
      // The user's own 0 means unlimited, whatever the group default says.
      expect((await setLimits({ rpm_limit: 0 })).success).toBe(true);
      expect(statusCounts(await Promise.all([1, 2, 3].map(() => rawChat(server, first))))).toEqual({ 200: 3 });
      // A token's own value still holds for that token.
      const own = await addToken(client, { unlimited_quota: true, rpm_limit: 1 });
      expect((await rawChat(server, own)).status).toBe(200);
      expect(refusalText(await rawChat(server, own))).toBe(
        'The API key has reached its limit of 1 requests per minute; retry in 60 s',
      );
      // The user's own value replaces the default.
      expect((await setLimits({ rpm_limit: 7 })).success).toBe(true);
      setClock([server], minute(8));
      const seven = await Promise.all(Array.from({ length: 10 }, () => rawChat(server, second)));
      expect(statusCounts(seven)).toEqual({ 200: 7, 429: 3 });
      const user = (await root.get<Record<string, unknown>>(`/api/user/${client.userId}`)).data;
      expect(user).toMatchObject({ rpm_limit: 7, tpm_limit: null, concurrency_limit: null });
    } finally {
      await root.put('/api/option/', { key: 'GroupLimitDefaults', value: '{}' });
    }
  });

  it('a daily budget refuses a spent token until the boundary, then starts again from 0', async () => {
    const day = periodBounds('day', Date.UTC(2031, 4, 14, 12));
    setClock([server], day.end - 30_000);
    const key = await addToken(root, {
      name: 'budgeted',
      remain_quota: 100 * PER_CALL_QUOTA,
      budget_period: 'day',
      budget_quota: 3 * PER_CALL_QUOTA,
    });
    const served = await Promise.all(Array.from({ length: 6 }, () => rawChat(server, key)));
    expect(statusCounts(served)).toEqual({ 200: 3, 429: 3 });
    const refused = await rawChat(server, key);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('30');
    expect(refused.body.error).toMatchObject({ code: 'budget_exceeded' });
    // What happened, in figures: this call's most, what is left of the budget, and when it starts again.
    const resets = formatPeriodEnd(day.end, day.end - 30_000);
    expect(refusalText(refused)).toBe(
      `This request may cost up to $0.002 (max_tokens), $0.00 of this API key's daily budget ($0.006) is left; resets at ${resets} (in 1 min)`,
    );
    const refusedZh = await rawChat(server, key, {}, { 'accept-language': 'zh-CN' });
    expect(refusalText(refusedZh)).toBe(
      `本次请求最多可能花费 $0.002（按 max_tokens 估算），令牌的每日预算（$0.006）仅剩 $0.00；预算将于 ${resets} 重置（1 分钟后）`,
    );
    // Before any write to the database, the list already counts this node's settled spends.
    expect(await tokenNamed(root, 'budgeted')).toMatchObject({
      budget_used: 3 * PER_CALL_QUOTA,
      budget_quota: 3 * PER_CALL_QUOTA,
      budget_reset_time: day.end / 1000,
    });
    await server.ctx.ledger.flush();
    await server.ctx.limits.budgets.flush();
    // The lifetime quota is spent alongside.
    expect(await tokenNamed(root, 'budgeted')).toMatchObject({
      budget_used: 3 * PER_CALL_QUOTA,
      remain_quota: 97 * PER_CALL_QUOTA,
    });
    const row = await server.ctx.repos.tokens.findByKey(key.slice(3));
    expect(row).toMatchObject({ budget_used: 3 * PER_CALL_QUOTA, budget_period_start: day.start });

    // A restarted node starts from what the database holds: the budget stays spent there too.
    const restarted = await startTestServer(dialect, { BATCH_UPDATE_INTERVAL: '60' }, server.database);
    try {
      setClock([restarted], day.end - 20_000);
      const again = await rawChat(restarted, key);
      expect(again.status).toBe(429);
      expect(again.retryAfter).toBe('20');
    } finally {
      await restarted.close();
    }

    // One second past the boundary: a new day, a new budget.
    setClock([server], day.end + 1_000);
    expect((await rawChat(server, key)).status).toBe(200);
    expect(await tokenNamed(root, 'budgeted')).toMatchObject({ budget_used: PER_CALL_QUOTA });
    await server.ctx.limits.budgets.flush();
    expect(await server.ctx.repos.tokens.findByKey(key.slice(3))).toMatchObject({
      budget_used: PER_CALL_QUOTA,
      budget_period_start: day.end,
    });
  });
});
