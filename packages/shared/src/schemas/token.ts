import { z } from 'zod';
import { fallbackFieldsSchema } from '../fallback/fields.js';
import { budgetFieldsSchema, limitFieldsSchema } from '../limits/fields.js';

export const TOKEN_NAME_MAX = 50;
export const TOKEN_DEFAULT_QUOTA = 500000;
export const TOKEN_BATCH_MAX = 100;
export const MAX_TOKENS_PER_USER = 1000;
export const TOKEN_QUOTA_PRESETS_USD = [1, 10, 50, 100, 500, 1000] as const;
export const TOKEN_BATCH_PRESETS = [10, 20, 30, 100] as const;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return false;
  const doubleColons = text.split('::').length - 1;
  if (doubleColons > 1) return false;
  const groups = text.split(':').filter((part) => part !== '');
  const last = groups.at(-1) ?? '';
  const embeddedV4 = IPV4.test(last);
  const hexGroups = embeddedV4 ? groups.slice(0, -1) : groups;
  if (!hexGroups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return false;
  const width = hexGroups.length + (embeddedV4 ? 2 : 0);
  return doubleColons === 1 ? width < 8 : width === 8;
}

/** One line of a token's IP allow list: an IPv4/IPv6 address or a CIDR range of one. */
export function isIpOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const v4 = IPV4.test(address);
  if (!v4 && !isIpv6(address)) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

export function splitAllowIps(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Token fields as the console and family scripts send them (create and edit share them). */
export const tokenInputSchema = z.object({
  name: z.string().trim().max(TOKEN_NAME_MAX, 'token_name_too_long').default(''),
  remain_quota: z
    .number()
    .int('token_quota_invalid')
    .min(0, 'token_quota_invalid')
    .max(Number.MAX_SAFE_INTEGER)
    .default(TOKEN_DEFAULT_QUOTA),
  expired_time: z
    .number()
    .int('token_expiry_invalid')
    .refine((value) => value === -1 || value > 0, 'token_expiry_invalid')
    .default(-1),
  unlimited_quota: z.boolean().default(false),
  model_limits_enabled: z.boolean().default(false),
  model_limits: z.string().max(10_000).default(''),
  allow_ips: z
    .string()
    .max(10_000)
    .default('')
    .refine((text) => splitAllowIps(text).every(isIpOrCidr), 'token_allow_ips_invalid'),
  group: z.string().trim().max(64).default(''),
  ...limitFieldsSchema.shape,
  ...budgetFieldsSchema.shape,
  ...fallbackFieldsSchema.shape,
});
export type TokenInput = z.infer<typeof tokenInputSchema>;

export const tokenCreateSchema = tokenInputSchema.extend({
  name: z
    .string({ error: 'token_name_required' })
    .trim()
    .min(1, 'token_name_required')
    .max(TOKEN_NAME_MAX, 'token_name_too_long'),
  /** Extension: create several in one transaction; extra ones get a random 6-character name suffix. */
  count: z
    .number()
    .int('token_count_invalid')
    .min(1, 'token_count_invalid')
    .max(TOKEN_BATCH_MAX, 'token_count_invalid')
    .default(1),
});

export const tokenUpdateSchema = tokenInputSchema.extend({ id: z.number().int().positive() });
export const tokenStatusSchema = z.object({ id: z.number().int().positive(), status: z.number().int() });
