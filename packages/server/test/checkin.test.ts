import { addDays, type CheckinResultView, type CheckinStatusView, LogType, localDate } from '@gateway/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, setupAndLogin, signedInUser } from './helpers/client.js';
import { availableDialects } from './helpers/databases.js';
import { flushBilling } from './helpers/relay.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const dialects = await availableDialects();

describe.each(dialects)('daily check-in on %s', (dialect) => {
  let server: TestServer;
  let root: ApiClient;

  const setOption = async (key: string, value: string) =>
    expect((await root.put('/api/option/', { key, value })).success).toBe(true);
  const quotaOf = async (id: number) => {
    await flushBilling(server);
    return (await server.ctx.repos.users.findById(id))!.quota;
  };
  const checkinLogs = async (userId: number) => {
    await flushBilling(server);
    const { items } = await server.ctx.repos.logs.list({ userId, type: LogType.System }, 0, 50);
    return items.filter((log) => (log.content ?? '').startsWith('用户签到'));
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    root = await setupAndLogin(server.baseUrl);
  }, 60_000);
  afterAll(async () => server?.close());

  it('is off by default: both routes refuse, the status says so, and nothing is credited', async () => {
    const alice = await signedInUser(server.baseUrl, server.ctx.repos, 'alice');
    expect((await alice.get<{ checkin_enabled: boolean }>('/api/status')).data.checkin_enabled).toBe(false);
    expect(await alice.get('/api/user/checkin')).toMatchObject({ success: false, message: '签到功能未启用' });
    expect(await alice.post('/api/user/checkin')).toMatchObject({ success: false, message: '签到功能未启用' });
    expect(await quotaOf(alice.userId!)).toBe(0);
    expect(await server.ctx.repos.checkins.totals(alice.userId!)).toEqual({ count: 0, quota: 0 });
  });

  it('credits the reward once a day, with the family’s answer, log line and status', async () => {
    await setOption('checkin_setting.enabled', 'true');
    await setOption('checkin_setting.min_quota', '2500');
    await setOption('checkin_setting.max_quota', '2500');
    const bob = await signedInUser(server.baseUrl, server.ctx.repos, 'bob');
    expect((await bob.get<{ checkin_enabled: boolean }>('/api/status')).data.checkin_enabled).toBe(true);
    const today = localDate(new Date());

    const before = await bob.get<CheckinStatusView>('/api/user/checkin');
    expect(before.data).toEqual({
      enabled: true,
      min_quota: 2500,
      max_quota: 2500,
      stats: {
        total_quota: 0,
        total_checkins: 0,
        checkin_count: 0,
        checked_in_today: false,
        records: [],
        today,
        streak: 0,
      },
    });

    const done = await bob.post<CheckinResultView>('/api/user/checkin');
    expect(done).toMatchObject({
      success: true,
      message: '签到成功',
      data: { quota_awarded: 2500, checkin_date: today },
    });
    expect(await quotaOf(bob.userId!)).toBe(2500);
    expect((await bob.get<{ quota: number }>('/api/user/self')).data.quota).toBe(2500);
    const logs = await checkinLogs(bob.userId!);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: LogType.System, quota: 2500, username: 'bob' });
    expect(JSON.parse(logs[0]!.other ?? '{}')).toEqual({ content_key: 'checkin', content_params: { quota: 2500 } });

    expect(await bob.post('/api/user/checkin')).toMatchObject({ success: false, message: '今天已经签到过了' });
    expect(await quotaOf(bob.userId!)).toBe(2500);
    expect(await checkinLogs(bob.userId!)).toHaveLength(1);

    const after = await bob.get<CheckinStatusView>(`/api/user/checkin?month=${today.slice(0, 7)}`);
    expect(after.data.stats).toEqual({
      total_quota: 2500,
      total_checkins: 1,
      checkin_count: 1,
      checked_in_today: true,
      records: [{ checkin_date: today, quota_awarded: 2500 }],
      today,
      streak: 1,
    });
  });

  it('credits exactly once when one user’s check-ins arrive at the same time', async () => {
    await setOption('checkin_setting.min_quota', '700');
    await setOption('checkin_setting.max_quota', '700');
    const carol = await signedInUser(server.baseUrl, server.ctx.repos, 'carol');
    const answers = await Promise.all(Array.from({ length: 12 }, () => carol.post('/api/user/checkin')));
    expect(answers.filter((answer) => answer.success)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.success).map((answer) => answer.message)).toEqual(
      Array(11).fill('今天已经签到过了'),
    );
    expect(await quotaOf(carol.userId!)).toBe(700);
    expect(await server.ctx.repos.checkins.totals(carol.userId!)).toEqual({ count: 1, quota: 700 });
    expect(await checkinLogs(carol.userId!)).toHaveLength(1);
    // The in-memory balance the relay charges against moved once too.
    expect((await carol.get<{ quota: number }>('/api/user/self')).data.quota).toBe(700);
  });

  it('draws the reward from the configured range (an inverted range is read the family’s way)', async () => {
    await setOption('checkin_setting.min_quota', '900');
    await setOption('checkin_setting.max_quota', '300');
    const dave = await signedInUser(server.baseUrl, server.ctx.repos, 'dave');
    const status = await dave.get<CheckinStatusView>('/api/user/checkin');
    expect(status.data).toMatchObject({ min_quota: 300, max_quota: 900 });
    const done = await dave.post<CheckinResultView>('/api/user/checkin');
    expect(done.data.quota_awarded).toBeGreaterThanOrEqual(300);
    expect(done.data.quota_awarded).toBeLessThanOrEqual(900);
    expect(await quotaOf(dave.userId!)).toBe(done.data.quota_awarded);
  });

  it('shows a month’s calendar and the streak of days in a row', async () => {
    const erin = await signedInUser(server.baseUrl, server.ctx.repos, 'erin');
    const today = localDate(new Date());
    // Earlier days as the family (or yesterday's click) left them; a gap breaks the run.
    for (const [back, quota] of [
      [1, 10],
      [2, 20],
      [4, 40],
    ] as const) {
      await server.ctx.db.inTransaction((trx) =>
        server.ctx.repos.checkins.insertOnce(trx, {
          user_id: erin.userId!,
          checkin_date: addDays(today, -back),
          quota_awarded: quota,
          created_at: 0,
        }),
      );
    }
    const open = await erin.get<CheckinStatusView>('/api/user/checkin');
    expect(open.data.stats).toMatchObject({ checked_in_today: false, streak: 2, total_checkins: 3, total_quota: 70 });
    expect((await erin.post('/api/user/checkin')).success).toBe(true);
    const lastMonth = addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
    const [thisMonth, previous] = await Promise.all([
      erin.get<CheckinStatusView>(`/api/user/checkin?month=${today.slice(0, 7)}`),
      erin.get<CheckinStatusView>(`/api/user/checkin?month=${lastMonth}`),
    ]);
    expect(thisMonth.data.stats.streak).toBe(3);
    const shown = [...thisMonth.data.stats.records, ...previous.data.stats.records].map((r) => r.checkin_date);
    expect(shown.sort()).toEqual([addDays(today, -4), addDays(today, -2), addDays(today, -1), today].sort());
    expect(thisMonth.data.stats.records.every((record) => record.checkin_date.startsWith(today.slice(0, 7)))).toBe(
      true,
    );
    expect(thisMonth.data.stats.checkin_count).toBe(thisMonth.data.stats.records.length);
  });

  it('refuses a malformed month, and callers who are not signed in', async () => {
    const frank = await signedInUser(server.baseUrl, server.ctx.repos, 'frank');
    for (const month of ['2026-13', '2026-1', 'x', '2026-01-01']) {
      expect(await frank.get(`/api/user/checkin?month=${month}`)).toMatchObject({
        success: false,
        message: '月份格式应为 YYYY-MM',
      });
    }
    const anonymous = await fetch(`${server.baseUrl}/api/user/checkin`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect(await server.ctx.repos.checkins.totals(frank.userId!)).toEqual({ count: 0, quota: 0 });
  });
});
