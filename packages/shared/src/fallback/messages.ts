/** Texts of model fallback (token field and options), spread into the server's message catalogue. */
export const FALLBACK_MESSAGES = {
  token_fallback_models_invalid: {
    zh: '备用模型须为逗号分隔的模型名，最多 5 个，每个不超过 128 个字符且不重复',
    en: 'Fallback models must be a comma list of at most 5 distinct model names of up to 128 characters each',
  },
  option_bad_group_fallback: {
    zh: '{key} 必须是 JSON 对象：分组 → ["备用模型", …]（按顺序尝试，最多 5 个，不重复）',
    en: '{key} must be a JSON object: group → ["fallback model", …] (tried in order, at most 5, no repeats)',
  },
  option_bad_fallback_status_codes: {
    zh: '{key} 必须是逗号分隔的状态码或范围（401–599，如 429,500-599），留空表示默认',
    en: '{key} must be a comma list of statuses or ranges (401–599, e.g. 429,500-599); empty means the default',
  },
} as const satisfies Record<string, { zh: string; en: string }>;
