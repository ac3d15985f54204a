import { randomInt } from 'node:crypto';
import {
  addDays,
  CHECKIN_MONTH,
  type CheckinResultView,
  type CheckinStatusView,
  checkinRewardRange,
  checkinStreak,
  localDate,
} from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import { creditCheckin } from '../billing/credits.js';
import type { AppContext } from '../context.js';
import { ApiFailure, messageFor, ok } from '../http/envelope.js';
import { turnstileCheck } from '../services/accounts/turnstile.js';

/** How far back the streak is looked for: a year and a day. */
const STREAK_WINDOW_DAYS = 366;

/**
 * Daily check-in (the family's `/api/user/checkin`): when `checkin_setting.enabled`, a signed-in user checks in once
 * per day of the server's time zone (`TZ`) for a reward drawn from the configured range, credited once
 * (billing/credits.ts) however many check-ins of the day arrive at once.
 */
export async function checkinRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser } = guards(ctx);
  const enabled = () => ctx.options.bool('checkin_setting.enabled');
  const range = () =>
    checkinRewardRange(
      ctx.options.number('checkin_setting.min_quota'),
      ctx.options.number('checkin_setting.max_quota'),
    );

  app.get('/api/user/checkin', { preHandler: requireUser }, async (request) => {
    if (!enabled()) throw new ApiFailure('checkin_disabled');
    const user = currentUser(request);
    const today = localDate(new Date());
    const asked = (request.query as { month?: unknown }).month;
    const month = asked === undefined || asked === '' ? today.slice(0, 7) : asked;
    if (typeof month !== 'string' || !CHECKIN_MONTH.test(month)) throw new ApiFailure('checkin_month_invalid');
    const checkins = ctx.repos.checkins;
    const [records, totals, recent] = await Promise.all([
      checkins.between(user.id, `${month}-01`, `${month}-31`),
      checkins.totals(user.id),
      checkins.between(user.id, addDays(today, -STREAK_WINDOW_DAYS), today),
    ]);
    const { min, max } = range();
    const view: CheckinStatusView = {
      enabled: true,
      min_quota: min,
      max_quota: max,
      stats: {
        total_quota: totals.quota,
        total_checkins: totals.count,
        checkin_count: records.length,
        checked_in_today: recent.some((record) => record.checkin_date === today),
        records,
        today,
        streak: checkinStreak(
          recent.map((record) => record.checkin_date),
          today,
        ),
      },
    };
    return ok(view);
  });

  app.post('/api/user/checkin', { preHandler: [requireUser, turnstileCheck(ctx)] }, async (request) => {
    if (!enabled()) throw new ApiFailure('checkin_disabled');
    const user = currentUser(request);
    const today = localDate(new Date());
    const { min, max } = range();
    const quota = randomInt(min, max + 1);
    if (!(await creditCheckin(ctx, user, today, quota))) throw new ApiFailure('checkin_already_done');
    const result: CheckinResultView = { quota_awarded: quota, checkin_date: today };
    return ok(result, messageFor(request, 'checkin_success'));
  });
}
