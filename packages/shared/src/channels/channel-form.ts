// Channel form rules shared by the console form and POST/PUT /api/channel/, so both refuse the same input
// with the same words. Everything here is pure: no I/O, no clock.

import { channelType } from './channel-types.js';

/** Lowest priority the console accepts (family rule); there is no upper bound. */
export const CHANNEL_PRIORITY_MIN = -999;

/**
 * Preset names the base URL field may hold instead of a URL; the server swaps in the provider's Claude or
 * OpenAI base for them.
 */
export const CHANNEL_SPECIAL_BASE_NAMES: readonly string[] = Object.freeze([
  'glm-coding-plan',
  'glm-coding-plan-international',
  'kimi-coding-plan',
  'doubao-coding-plan',
]);

/** Types that cannot work without an operator-entered URL: Azure has per-resource hosts, Custom *is* the URL. */
const BASE_URL_REQUIRED_TYPES: ReadonlySet<number> = new Set([3, 8]);

export const CHANNEL_FORM_MESSAGES = {
  channel_name_key_required: { zh: '请填写渠道名称和渠道密钥！', en: 'Please fill in the channel name and key' },
  channel_models_required: { zh: '请至少选择一个模型！', en: 'Please choose at least one model' },
  channel_type_invalid: { zh: '渠道类型无效', en: 'Invalid channel type' },
  channel_model_mapping_invalid: { zh: '模型映射必须是合法的 JSON 格式！', en: 'Model mapping must be valid JSON' },
  channel_json_invalid: { zh: '{field} 必须是合法的 JSON 对象', en: '{field} must be a valid JSON object' },
  channel_priority_invalid: {
    zh: '优先级必须是不小于 -999 的整数',
    en: 'Priority must be an integer of at least -999',
  },
  channel_weight_invalid: { zh: '权重必须是非负整数', en: 'Weight must be a non-negative integer' },
  channel_base_url_invalid: {
    zh: '请填写以 http:// 或 https:// 开头的 API 地址',
    en: 'The base URL must start with http:// or https://',
  },
  channel_groups_required: { zh: '请至少选择一个分组！', en: 'Please choose at least one group' },
} as const satisfies Record<string, { zh: string; en: string }>;

export type ChannelFormErrorCode = keyof typeof CHANNEL_FORM_MESSAGES;

/** A refusal as a message code plus parameters (`field` for channel_json_invalid), worded by the caller. */
export interface ChannelFormError {
  code: ChannelFormErrorCode;
  params?: Record<string, string | number>;
}

/** JSON columns arrive as text from the form; a server caller may already hold the parsed object. */
type JsonInput = string | Record<string, unknown> | null | undefined;

/** The channel fields the form and the API accept. Anything absent counts as empty. */
export interface ChannelFormInput {
  name?: string | null;
  type?: number | string | null;
  key?: string | null;
  /** Comma string on the wire, list in the form. */
  models?: string | readonly string[] | null;
  /** Comma string on the wire. */
  group?: string | null;
  /** List in the form; wins over `group` when given. */
  groups?: readonly string[] | null;
  base_url?: string | null;
  model_mapping?: JsonInput;
  status_code_mapping?: JsonInput;
  param_override?: JsonInput;
  setting?: JsonInput;
  header_override?: JsonInput;
  /** The family's "other settings" JSON (the upstream model watch); left as stored when an edit omits it. */
  settings?: JsonInput;
  priority?: number | string | null;
  weight?: number | string | null;
  other?: string | null;
}

// ---- text helpers ---------------------------------------------------------------------------------------------

/** Trims and strips trailing slashes, so `${base}/v1/...` never doubles a slash. */
export function normaliseBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The adaptors append /v1 themselves; a base URL already ending in it usually yields /v1/v1 (the console asks). */
export function baseUrlEndsWithV1(url: string): boolean {
  return /\/v1$/i.test(normaliseBaseUrl(url));
}

function uniqueNonEmpty(items: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const raw of items) {
    const item = raw.trim();
    if (item !== '') seen.add(item);
  }
  return [...seen];
}

const isJsonObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A key that is a JSON document (a Vertex AI service-account file, pasted pretty-printed over many lines), or null
 * when the text is not one: a JSON object is one key, a JSON array of objects is one key per element. Each comes out
 * on one line, because a channel's stored keys are separated by line breaks.
 */
function jsonKeys(text: string): string[] | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (isJsonObject(parsed)) return [JSON.stringify(parsed)];
    if (Array.isArray(parsed) && parsed.length > 0 && parsed.every(isJsonObject)) {
      return uniqueNonEmpty(parsed.map((item) => JSON.stringify(item)));
    }
  } catch {
    // not one JSON document: one key per line (each line may be a JSON key of its own)
  }
  return null;
}

/**
 * Batch create: one key per line. Blank lines and repeats are dropped, first occurrence keeps its place. A JSON
 * document is read as keys instead of lines (jsonKeys).
 */
export function splitKeys(text: string): string[] {
  return jsonKeys(text) ?? uniqueNonEmpty(text.split(/\r?\n/));
}

/** Single-key mode: the text is one key (a JSON document put on one line, so it survives the line split). */
export function singleKey(text: string): string {
  return jsonKeys(text)?.join('\n') ?? text.trim();
}

/** Comma string or list → trimmed unique list. List items are split too, as the wire format joins by comma. */
export function splitModels(text: string | readonly string[]): string[] {
  const parts = typeof text === 'string' ? [text] : text;
  return uniqueNonEmpty(parts.flatMap((part) => part.split(',')));
}

export function joinModels(list: string | readonly string[]): string {
  return splitModels(list).join(',');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Empty means "not set" (null); otherwise the text must be a JSON object — arrays and scalars are refused. */
export function parseJsonObjectField(
  text: string | null | undefined,
): { ok: true; value: Record<string, unknown> | null } | { ok: false } {
  if (text === null || text === undefined || text.trim() === '') return { ok: true, value: null };
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

function parseJsonInput(input: JsonInput): { ok: true; value: Record<string, unknown> | null } | { ok: false } {
  if (typeof input === 'string' || input === null || input === undefined) return parseJsonObjectField(input);
  return isPlainObject(input) ? { ok: true, value: input } : { ok: false };
}

// ---- model mapping ----------------------------------------------------------------------------------------------

/**
 * Follows the mapping from the requested name to the upstream name (a→b→c gives c). A name mapped to itself,
 * or to '', ends the chain without counting as a mapping; coming back to a name already visited is a cycle.
 */
export function resolveModelMapping(
  mapping: Readonly<Record<string, string>>,
  model: string,
): { model: string; mapped: boolean } | { error: 'model_mapping_cycle' } {
  const visited = new Set([model]);
  let current = model;
  for (;;) {
    const next = Object.hasOwn(mapping, current) ? mapping[current] : undefined;
    if (typeof next !== 'string' || next === '' || next === current) break;
    if (visited.has(next)) return { error: 'model_mapping_cycle' };
    visited.add(next);
    current = next;
  }
  return { model: current, mapped: current !== model };
}

// ---- validation ---------------------------------------------------------------------------------------------------

const HTTP_URL = /^https?:\/\/[^\s/?#]+\S*$/i;
const STATUS_CODE = /^[1-5]\d\d$/;

function isText(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** Integer from a number or an integer-looking string; undefined/null/'' mean "not given" (server default). */
function parseIntField(value: number | string | null | undefined): number | null | 'invalid' {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : 'invalid';
  const text = value.trim();
  if (text === '') return null;
  const n = Number(text);
  return /^[+-]?\d+$/.test(text) && Number.isSafeInteger(n) ? n : 'invalid';
}

function groupsOf(input: ChannelFormInput): string[] {
  if (input.groups !== null && input.groups !== undefined) return splitModels(input.groups);
  return typeof input.group === 'string' ? splitModels(input.group) : [];
}

function validModelMapping(input: JsonInput): boolean {
  const parsed = parseJsonInput(input);
  if (!parsed.ok) return false;
  if (parsed.value === null) return true;
  const mapping = parsed.value;
  if (!Object.values(mapping).every((v) => typeof v === 'string')) return false;
  const strings = mapping as Record<string, string>;
  return Object.keys(strings).every((from) => !('error' in resolveModelMapping(strings, from)));
}

function validStatusCodeMapping(input: JsonInput): boolean {
  const parsed = parseJsonInput(input);
  if (!parsed.ok) return false;
  if (parsed.value === null) return true;
  return Object.entries(parsed.value).every(
    ([from, to]) => STATUS_CODE.test(from) && typeof to === 'string' && STATUS_CODE.test(to),
  );
}

function validHeaderOverride(input: JsonInput): boolean {
  const parsed = parseJsonInput(input);
  if (!parsed.ok) return false;
  if (parsed.value === null) return true;
  return Object.entries(parsed.value).every(([name, value]) => name.trim() !== '' && typeof value === 'string');
}

function validObject(input: JsonInput): boolean {
  return parseJsonInput(input).ok;
}

/**
 * First rule the input breaks, or null. On edit an empty key means "keep the stored key(s)".
 * Order follows the form: identity, type, models, groups, address, JSON fields, numbers.
 */
export function validateChannelInput(input: ChannelFormInput, mode: 'create' | 'edit'): ChannelFormError | null {
  if (!isText(input.name) || (mode === 'create' && !isText(input.key))) {
    return { code: 'channel_name_key_required' };
  }

  const type = channelType(input.type);
  if (!type || type.value === 0) return { code: 'channel_type_invalid' };

  if (splitModels(input.models ?? []).length === 0) return { code: 'channel_models_required' };
  if (groupsOf(input).length === 0) return { code: 'channel_groups_required' };

  const baseUrl = normaliseBaseUrl(input.base_url ?? '');
  if (baseUrl === '') {
    if (BASE_URL_REQUIRED_TYPES.has(type.value)) return { code: 'channel_base_url_invalid' };
  } else if (!HTTP_URL.test(baseUrl)) {
    const preset = CHANNEL_SPECIAL_BASE_NAMES.includes(baseUrl) && !BASE_URL_REQUIRED_TYPES.has(type.value);
    if (!preset) return { code: 'channel_base_url_invalid' };
  }

  if (!validModelMapping(input.model_mapping)) return { code: 'channel_model_mapping_invalid' };
  const jsonChecks: [string, boolean][] = [
    ['status_code_mapping', validStatusCodeMapping(input.status_code_mapping)],
    ['param_override', validObject(input.param_override)],
    ['setting', validObject(input.setting)],
    ['header_override', validHeaderOverride(input.header_override)],
    ['settings', validObject(input.settings)],
  ];
  for (const [field, ok] of jsonChecks) {
    if (!ok) return { code: 'channel_json_invalid', params: { field } };
  }

  const priority = parseIntField(input.priority);
  if (priority === 'invalid' || (priority !== null && priority < CHANNEL_PRIORITY_MIN)) {
    return { code: 'channel_priority_invalid' };
  }
  const weight = parseIntField(input.weight);
  if (weight === 'invalid' || (weight !== null && weight < 0)) return { code: 'channel_weight_invalid' };

  return null;
}
