/**
 * Texts of the per-key, per-user and per-group limits and budgets (refusals and form checks), spread into the
 * server's message catalogue. `{scope}` is one of the scope words below, `{period}` one of the period words.
 */
export const LIMIT_MESSAGES = {
  limit_scope_token: { zh: '令牌', en: 'API key' },
  limit_scope_user: { zh: '用户', en: 'user' },
  limit_period_day: { zh: '每日', en: 'daily' },
  limit_period_week: { zh: '每周', en: 'weekly' },
  limit_period_month: { zh: '每月', en: 'monthly' },
  limit_rpm_reached: {
    zh: '{scope}已达到每分钟请求数上限（{limit} 次/分钟），请 {seconds} 秒后重试',
    en: 'The {scope} has reached its limit of {limit} requests per minute; retry in {seconds} s',
  },
  limit_tpm_reached: {
    zh: '{scope}已达到每分钟 token 数上限（{limit} tokens/分钟），请 {seconds} 秒后重试',
    en: 'The {scope} has reached its limit of {limit} tokens per minute; retry in {seconds} s',
  },
  limit_concurrency_reached: {
    zh: '{scope}已达到并发请求数上限（{limit} 个），请在进行中的请求结束后重试',
    en: 'The {scope} has reached its limit of {limit} concurrent requests; retry when one of them has finished',
  },
  limit_budget_spent: {
    zh: '本次请求最多可能花费 {cost}（按 max_tokens 估算），令牌的{period}预算（{limit}）仅剩 {left}；预算将于 {reset} 重置（{wait}后）',
    en: "This request may cost up to {cost} (max_tokens), {left} of this API key's {period} budget ({limit}) is left; resets at {reset} (in {wait})",
  },
  limit_rpm_invalid: {
    zh: '每分钟请求数必须是不小于 0 的整数（留空表示不单独限制）',
    en: 'Requests per minute must be a whole number of at least 0 (empty: no limit of its own)',
  },
  limit_tpm_invalid: {
    zh: '每分钟 token 数必须是不小于 0 的整数（留空表示不单独限制）',
    en: 'Tokens per minute must be a whole number of at least 0 (empty: no limit of its own)',
  },
  limit_concurrency_invalid: {
    zh: '并发请求数必须是不小于 0 的整数（留空表示不单独限制）',
    en: 'Concurrent requests must be a whole number of at least 0 (empty: no limit of its own)',
  },
  budget_period_invalid: {
    zh: '预算周期只能是 day、week、month 或留空',
    en: 'The budget period must be day, week, month or empty',
  },
  budget_quota_invalid: {
    zh: '预算额度必须是不小于 0 的整数',
    en: 'The budget must be a whole number of at least 0',
  },
  budget_quota_required: {
    zh: '设置了预算周期时，预算额度必须大于 0',
    en: 'A budget period needs a budget above 0',
  },
  option_bad_group_limits: {
    zh: '{key} 必须是 JSON 对象：分组 → {"rpm": 整数, "tpm": 整数, "concurrency": 整数}（均可省略，0 表示不限制）',
    en: '{key} must be a JSON object: group → {"rpm": int, "tpm": int, "concurrency": int} (each optional, 0 = no limit)',
  },
} as const satisfies Record<string, { zh: string; en: string }>;
