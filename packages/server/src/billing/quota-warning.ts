import { formatQuota } from '@gateway/shared';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { userSetting } from '../services/accounts/user-setting.js';
import { notifyUser } from '../services/notifications/notify.js';

const QUIET_MS = 10 * 60_000;
// Per server instance (tests run several in one process): user id → time of the last warning.
const sentByContext = new WeakMap<AppContext, Map<number, number>>();

/**
 * After a request is settled: when it took the user's balance from above their warning threshold to below it,
 * the user is told once (and not again for ten minutes). Sending happens off the request path.
 */
export function maybeWarnLowQuota(ctx: AppContext, user: UserRow, before: number, after: number): void {
  const threshold = userSetting(user).quota_warning_threshold ?? ctx.options.number('QuotaRemindThreshold');
  if (!(before >= threshold && after < threshold)) return;
  const now = Date.now();
  let lastSent = sentByContext.get(ctx);
  if (!lastSent) {
    lastSent = new Map();
    sentByContext.set(ctx, lastSent);
  }
  if (now - (lastSent.get(user.id) ?? 0) < QUIET_MS) return;
  lastSent.set(user.id, now);
  const display = { quotaPerUnit: ctx.options.number('QuotaPerUnit'), displayInCurrency: true };
  const content = `您的额度即将用尽，当前剩余额度为 ${formatQuota(after, display)}，请及时充值。`;
  void notifyUser(ctx.options, user, { type: 'quota_exceed', title: '额度余额提醒', content }).catch(() => {
    // A failed notice must not affect billing; the next crossing tries again after the quiet period.
    lastSent?.delete(user.id);
  });
}
