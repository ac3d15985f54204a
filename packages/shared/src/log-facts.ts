/**
 * Log lines the server writes, kept as facts in the row's `other` JSON (a key and its numbers) beside the family's
 * Chinese `content`: the console renders them in the reader's language, and old clients still read `content`.
 */
export type LogFactKey =
  | 'topup_online'
  | 'redeem'
  | 'aff_transfer'
  | 'checkin'
  | 'register_bonus'
  | 'invite_code_bonus'
  | 'inviter_bonus'
  | 'task_refund_drawing'
  | 'task_refund_async'
  | 'task_video_extra'
  | 'task_video_refund'
  | 'task_video_tokens_extra'
  | 'task_video_tokens_refund'
  | 'admin_set_quota'
  | 'admin_add_quota'
  | 'subscription_balance_pay';

export interface LogFacts {
  content_key: LogFactKey;
  /** Quotas are raw quota units (the reader's display decides the unit); other values are shown as they are. */
  content_params: Record<string, string | number>;
}

export function logFacts(key: LogFactKey, params: Record<string, string | number>): string {
  return JSON.stringify({ content_key: key, content_params: params } satisfies LogFacts);
}
