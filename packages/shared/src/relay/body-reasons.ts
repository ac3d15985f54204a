/**
 * What is wrong with a relay request body, in each language the relay answers in. The relay's checks name the
 * reason in English (the key); the message `relay_body_invalid` is then written wholly in the caller's language,
 * never a Chinese sentence around an English reason.
 */
export const RELAY_BODY_REASONS: Record<string, { zh: string; en: string }> = {
  'JSON object expected': { zh: '请求体应为 JSON 对象', en: 'a JSON object is expected' },
  'model is required': { zh: '缺少 model 字段', en: 'model is required' },
  'model: Field required': { zh: '缺少 model 字段', en: 'model: Field required' },
  'messages: Field required': { zh: '缺少 messages 字段', en: 'messages: Field required' },
  'max_tokens: Field required': { zh: '缺少 max_tokens 字段（须为正整数）', en: 'max_tokens: Field required' },
  'messages must be a non-empty array': { zh: 'messages 须为非空数组', en: 'messages must be a non-empty array' },
  'contents is required': { zh: '缺少 contents 字段（须为非空数组）', en: 'contents is required' },
  'input must be a string or a list of items': {
    zh: 'input 须为字符串或条目列表',
    en: 'input must be a string or a list of items',
  },
  'input is required': { zh: '缺少 input 字段', en: 'input is required' },
  'file is required': { zh: '缺少 file 文件', en: 'file is required' },
  'multipart/form-data expected': { zh: '请求体应为 multipart/form-data', en: 'multipart/form-data expected' },
  'ids must be a list of strings': { zh: 'ids 须为字符串列表', en: 'ids must be a list of strings' },
};

/**
 * The reason in the caller's language, or null when it has no translation there (the whole message is then
 * written in English rather than mixing two languages).
 */
export function relayBodyReason(reason: string, lang: string): string | null {
  const entry = Object.hasOwn(RELAY_BODY_REASONS, reason) ? RELAY_BODY_REASONS[reason] : undefined;
  if (!entry) return lang === 'en' ? reason : null;
  return (entry as Record<string, string>)[lang] ?? null;
}
