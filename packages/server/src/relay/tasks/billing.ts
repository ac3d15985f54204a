import type { TaskPayer } from '../../billing/task-settlement.js';
import type { Billing } from '../reserve.js';

/** Who pays for a task being submitted: kept with the task, so its end charges or refunds the same user and token. */
export function payerOf(billing: Billing): TaskPayer {
  const { token, user } = billing.caller;
  return { user_id: user.id, token_id: token.id, token_unlimited: token.unlimited_quota === 1 };
}
