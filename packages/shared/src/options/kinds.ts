/**
 * How an option's string value is interpreted and checked. Options travel as strings (family convention:
 * booleans are "true"/"false"), so each key declares its kind once and server and console validate alike.
 */
export type OptionKind =
  | { type: 'bool' }
  | { type: 'int'; min?: number; max?: number }
  | { type: 'number'; min?: number; max?: number }
  | { type: 'string'; maxLength?: number }
  | { type: 'url' }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'json'; shape: JsonShape };

export type JsonShape =
  | 'object'
  | 'array'
  | 'string-array'
  | 'number-map'
  | 'positive-int-map'
  | 'string-map'
  /** Harm category (or `default`) → one of Gemini's block thresholds. */
  | 'gemini-safety'
  | 'header-map'
  | 'rate-limit-groups'
  | 'chats'
  /** Top-up amounts: positive whole numbers (the family stores them as ints). */
  | 'amount-list'
  /** Top-up amount (positive whole number as key) → price factor above 0 and at most 1. */
  | 'amount-discounts'
  /** `global.chat_completions_to_responses_policy` (responses-policy.ts). */
  | 'responses-policy'
  /** `GroupLimitDefaults`: group → {rpm, tpm, concurrency} (limits/fields.ts). */
  | 'group-limits'
  /** `GroupFallbackModels`: group → [fallback models] (fallback/fields.ts). */
  | 'group-fallback'
  /** `CreemProducts`: [{productId, name, price, currency, quota}] (payments/card-payments.ts). */
  | 'creem-products'
  | 'any';

export interface OptionDefinition {
  kind: OptionKind;
  default: string;
}

export const bool = (value: boolean): OptionDefinition => ({ kind: { type: 'bool' }, default: String(value) });
export const int = (value: number, min?: number, max?: number): OptionDefinition => ({
  kind: { type: 'int', min, max },
  default: String(value),
});
export const num = (value: number, min?: number, max?: number): OptionDefinition => ({
  kind: { type: 'number', min, max },
  default: String(value),
});
export const str = (value = ''): OptionDefinition => ({ kind: { type: 'string' }, default: value });
export const url = (value = ''): OptionDefinition => ({ kind: { type: 'url' }, default: value });
export const oneOf = (value: string, values: readonly string[]): OptionDefinition => ({
  kind: { type: 'enum', values },
  default: value,
});
export const json = (value: unknown, shape: JsonShape): OptionDefinition => ({
  kind: { type: 'json', shape },
  default: JSON.stringify(value, null, 2),
});
