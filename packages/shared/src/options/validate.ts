import { parseGroupFallbackModels, parseStatusRanges } from '../fallback/fields.js';
import { parseGroupLimitDefaults } from '../limits/fields.js';
import { parseCreemProducts } from '../payments/card-payments.js';
import { isOptionKey, OPTION_DEFINITIONS } from './definitions.js';
import type { JsonShape, OptionKind } from './kinds.js';
import { parseResponsesPolicy } from './responses-policy.js';

/** A validation failure as a message key plus parameters, so server and console word it in zh or en. */
export interface OptionError {
  code:
    | 'option_unknown'
    | 'option_not_bool'
    | 'option_not_int'
    | 'option_not_number'
    | 'option_below_min'
    | 'option_above_max'
    | 'option_not_url'
    | 'option_not_enum'
    | 'option_invalid_json'
    | 'option_bad_json_shape'
    | 'option_bad_amount_list'
    | 'option_bad_gemini_safety'
    | 'option_bad_amount_discounts'
    | 'option_bad_responses_policy'
    | 'option_bad_group_limits'
    | 'option_bad_group_fallback'
    | 'option_bad_creem_products'
    | 'option_bad_fallback_status_codes'
    | 'option_bad_domain'
    | 'option_duplicate_domain'
    | 'option_requires';
  params?: Record<string, string | number>;
}

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:(?!-)[a-zA-Z0-9-]{1,63}(?<!-)\.)+[a-zA-Z]{2,63}$/;

export function isDomain(text: string): boolean {
  return DOMAIN_PATTERN.test(text);
}

/** The whitelist's comma list as entries, blanks dropped. */
export function splitDomainList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

function findDuplicate(entries: string[]): string | undefined {
  const seen = new Set<string>();
  for (const entry of entries) {
    const folded = entry.toLowerCase();
    if (seen.has(folded)) return entry;
    seen.add(folded);
  }
  return undefined;
}

/** Largest count the rate limiter stores (the family keeps these as 32-bit integers). */
export const RATE_LIMIT_MAX = 2_147_483_647;

function isIntIn(value: unknown, min: number, max: number): boolean {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

/** A top-up amount as a JSON object key: a positive whole number written plainly ("100", not "0100" or "1e2"). */
const AMOUNT_KEY = /^[1-9]\d{0,14}$/;

/** Shapes whose mistakes are common enough to deserve a message that shows the expected form. */
/** The thresholds Gemini's safetySettings accept (an unknown one makes every converted call fail upstream). */
const GEMINI_THRESHOLDS = [
  'OFF',
  'BLOCK_NONE',
  'BLOCK_ONLY_HIGH',
  'BLOCK_MEDIUM_AND_ABOVE',
  'BLOCK_LOW_AND_ABOVE',
  'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
];

const SHAPE_ERRORS: Partial<Record<JsonShape, OptionError['code']>> = {
  'amount-list': 'option_bad_amount_list',
  'gemini-safety': 'option_bad_gemini_safety',
  'amount-discounts': 'option_bad_amount_discounts',
  'responses-policy': 'option_bad_responses_policy',
  'group-limits': 'option_bad_group_limits',
  'group-fallback': 'option_bad_group_fallback',
  'creem-products': 'option_bad_creem_products',
};

/** Options that may only be switched on when other options are filled (family rule). */
const REQUIRES: Record<string, string[]> = {
  GitHubOAuthEnabled: ['GitHubClientId'],
  LinuxDOOAuthEnabled: ['LinuxDOClientId'],
  'oidc.enabled': ['oidc.client_id'],
  WeChatAuthEnabled: ['WeChatServerAddress'],
  TelegramOAuthEnabled: ['TelegramBotName'],
  TurnstileCheckEnabled: ['TurnstileSiteKey'],
};

/**
 * Checks one option value. `current` reads the other options (for the "needs X first" rules).
 * Returns null when the value may be stored.
 */
export function validateOption(key: string, value: string, current?: (key: string) => string): OptionError | null {
  if (!isOptionKey(key)) return { code: 'option_unknown', params: { key } };
  const error = checkKind(OPTION_DEFINITIONS[key].kind, value, key);
  if (error) return error;
  if (key === 'EmailDomainWhitelist') {
    const bad = splitDomainList(value).find((entry) => !isDomain(entry));
    if (bad !== undefined) return { code: 'option_bad_domain', params: { key, value: bad } };
    const duplicate = findDuplicate(splitDomainList(value));
    if (duplicate !== undefined) return { code: 'option_duplicate_domain', params: { key, value: duplicate } };
  }
  if (key === 'FallbackStatusCodes' && parseStatusRanges(value) === null) {
    return { code: 'option_bad_fallback_status_codes', params: { key } };
  }
  const needed = REQUIRES[key];
  if (needed && value === 'true' && current) {
    const missing = needed.find((other) => current(other).trim() === '');
    if (missing) return { code: 'option_requires', params: { key, other: missing } };
  }
  return null;
}

function checkKind(kind: OptionKind, value: string, key: string): OptionError | null {
  switch (kind.type) {
    case 'bool':
      return value === 'true' || value === 'false' ? null : { code: 'option_not_bool', params: { key } };
    case 'int':
    case 'number': {
      const trimmed = value.trim();
      const parsed = Number(trimmed);
      if (trimmed === '' || !Number.isFinite(parsed)) return { code: 'option_not_number', params: { key } };
      if (kind.type === 'int' && !Number.isInteger(parsed)) return { code: 'option_not_int', params: { key } };
      if (kind.min !== undefined && parsed < kind.min)
        return { code: 'option_below_min', params: { key, min: kind.min } };
      if (kind.max !== undefined && parsed > kind.max)
        return { code: 'option_above_max', params: { key, max: kind.max } };
      return null;
    }
    case 'string':
      return kind.maxLength !== undefined && value.length > kind.maxLength
        ? { code: 'option_above_max', params: { key, max: kind.maxLength } }
        : null;
    case 'url':
      return value === '' || /^https?:\/\/[^\s]+$/i.test(value) ? null : { code: 'option_not_url', params: { key } };
    case 'enum':
      return kind.values.includes(value)
        ? null
        : { code: 'option_not_enum', params: { key, values: kind.values.join(', ') } };
    case 'json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return { code: 'option_invalid_json', params: { key } };
      }
      return matchesShape(parsed, kind.shape)
        ? null
        : { code: SHAPE_ERRORS[kind.shape] ?? 'option_bad_json_shape', params: { key } };
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function matchesShape(value: unknown, shape: JsonShape): boolean {
  switch (shape) {
    case 'any':
      return true;
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string-array':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '');
    case 'positive-int-map':
      return isPlainObject(value) && Object.values(value).every((v) => isIntIn(v, 1, Number.MAX_SAFE_INTEGER));
    case 'header-map':
      return (
        isPlainObject(value) &&
        Object.values(value).every(
          (headers) =>
            isPlainObject(headers) &&
            Object.values(headers).every((list) => Array.isArray(list) && list.every((v) => typeof v === 'string')),
        )
      );
    case 'number-map':
      return (
        isPlainObject(value) && Object.values(value).every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0)
      );
    case 'gemini-safety':
      return (
        isPlainObject(value) &&
        Object.values(value).every((v) => typeof v === 'string' && GEMINI_THRESHOLDS.includes(v))
      );
    case 'string-map':
      return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');
    case 'rate-limit-groups':
      return (
        isPlainObject(value) &&
        Object.keys(value).every((group) => group.trim() !== '') &&
        Object.values(value).every(
          // [max requests (0 = unlimited), max completed requests], the family's bounds
          (v) =>
            Array.isArray(v) && v.length === 2 && isIntIn(v[0], 0, RATE_LIMIT_MAX) && isIntIn(v[1], 1, RATE_LIMIT_MAX),
        )
      );
    case 'amount-list':
      return Array.isArray(value) && value.every((v) => isIntIn(v, 1, Number.MAX_SAFE_INTEGER));
    case 'amount-discounts':
      return (
        isPlainObject(value) &&
        Object.entries(value).every(
          ([amount, factor]) =>
            AMOUNT_KEY.test(amount) &&
            typeof factor === 'number' &&
            Number.isFinite(factor) &&
            factor > 0 &&
            factor <= 1,
        )
      );
    case 'responses-policy':
      return parseResponsesPolicy(value) !== null;
    case 'group-limits':
      return parseGroupLimitDefaults(value) !== null;
    case 'group-fallback':
      return parseGroupFallbackModels(value) !== null;
    case 'creem-products':
      return parseCreemProducts(value) !== null;
    case 'chats':
      return (
        Array.isArray(value) &&
        value.every((entry) => isPlainObject(entry) && Object.values(entry).every((v) => typeof v === 'string'))
      );
  }
}
