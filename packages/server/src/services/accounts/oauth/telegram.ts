import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../../context.js';
import { ApiFailure } from '../../../http/envelope.js';
import type { ProviderAccountInfo, ProviderIdentity } from './redirect-provider.js';

export const telegramAccount: ProviderAccountInfo = {
  label: 'Telegram',
  column: 'telegram_id',
  usernamePrefix: 'telegram',
  fallbackDisplayName: 'Telegram User',
  enabled: (ctx) => ctx.options.bool('TelegramOAuthEnabled'),
};

/** Login data older than this is refused, so a leaked link cannot be replayed later. */
export const TELEGRAM_MAX_AGE_SECONDS = 86_400;
// Our console adds the interface language to the widget's data; Telegram did not sign it.
const UNSIGNED_FIELDS = new Set(['hash', 'lang']);

/**
 * Checks the login widget's data as Telegram documents it: the data-check string is every received field except
 * `hash`, as `key=value` sorted by key and joined with newlines; its HMAC-SHA256 under the key SHA256(bot token)
 * must equal `hash`, and `auth_date` must be recent.
 */
export function verifyTelegramLogin(
  fields: Record<string, string>,
  botToken: string,
  nowSeconds: number,
): ProviderIdentity {
  const hash = fields.hash ?? '';
  const signed = Object.keys(fields)
    .filter((key) => !UNSIGNED_FIELDS.has(key))
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', secret).update(signed).digest();
  const given = /^[0-9a-f]{64}$/i.test(hash) ? Buffer.from(hash, 'hex') : Buffer.alloc(0);
  if (!botToken || !fields.id || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiFailure('telegram_data_invalid');
  }
  const authDate = Number(fields.auth_date);
  if (!Number.isInteger(authDate) || nowSeconds - authDate > TELEGRAM_MAX_AGE_SECONDS || authDate - nowSeconds > 300) {
    throw new ApiFailure('telegram_data_expired');
  }
  const name = [fields.first_name, fields.last_name].filter(Boolean).join(' ');
  return { id: fields.id, legacyIds: [], displayName: name || fields.username || '', email: '' };
}

/** The widget's query as plain strings (repeated keys keep the first value). */
export function telegramFields(query: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') fields[key] = first;
  }
  return fields;
}

export function telegramBotToken(ctx: AppContext): string {
  return ctx.options.get('TelegramBotToken');
}
