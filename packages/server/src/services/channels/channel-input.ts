import {
  type ChannelFormInput,
  joinModels,
  normaliseBaseUrl,
  singleKey,
  splitKeys,
  splitModels,
  validateChannelInput,
} from '@gateway/shared';
import type { NewChannel } from '../../db/schema.js';
import { ApiFailure } from '../../http/envelope.js';

/** The channel fields as the console and family scripts send them (ints or numeric strings, lists or comma text). */
export interface ChannelBody extends ChannelFormInput {
  id?: number;
  openai_organization?: string | null;
  test_model?: string | null;
  auto_ban?: number | boolean | null;
  tag?: string | null;
  remark?: string | null;
  max_input_tokens?: number | null;
  status?: number;
}

const JSON_FIELDS = ['model_mapping', 'status_code_mapping', 'param_override', 'setting', 'header_override'] as const;

function jsonText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  return JSON.stringify(value);
}

function integer(value: unknown, fallback: number): number {
  if (value === null || value === undefined || value === '') return fallback;
  return Number(value);
}

function optionalText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed.slice(0, max);
}

/** Validates with the shared rules and turns a body into column values (without key and status). */
export function channelColumns(given: ChannelBody, mode: 'create' | 'edit'): Omit<NewChannel, 'key'> {
  // A channel created without any group is in "default", as the family's column default puts it; an explicitly
  // empty group is still refused.
  const body =
    mode === 'create' && given.group == null && given.groups == null ? { ...given, group: 'default' } : given;
  const error = validateChannelInput(body, mode);
  if (error) throw new ApiFailure(error.code, error.params);
  const groups = body.groups?.length ? body.groups : splitModels(body.group ?? 'default');
  const columns: Omit<NewChannel, 'key'> = {
    name: String(body.name ?? '').trim(),
    type: Number(body.type),
    base_url: normaliseBaseUrl(body.base_url ?? ''),
    other: typeof body.other === 'string' ? body.other.trim() : '',
    models: joinModels(body.models ?? ''),
    group: joinModels(groups),
    priority: integer(body.priority, 0),
    weight: integer(body.weight, 0),
    auto_ban: body.auto_ban === false || body.auto_ban === 0 ? 0 : 1,
    tag: optionalText(body.tag, 128),
    openai_organization: optionalText(body.openai_organization, 255),
    test_model: optionalText(body.test_model, 255),
    remark: optionalText(body.remark, 255),
    max_input_tokens: Math.max(0, integer(body.max_input_tokens, 0) || 0),
  };
  for (const field of JSON_FIELDS) columns[field] = jsonText(body[field]);
  // The console of the spec's era never sends `settings`: an edit without it keeps what the watch recorded.
  if (body.settings !== undefined || mode === 'create') columns.settings = jsonText(body.settings);
  return columns;
}

/** Keys of a create request: several lines make a batch (one channel per key) unless the mode says single. */
export function channelKeys(body: ChannelBody, mode: string | undefined): string[] {
  const text = String(body.key ?? '');
  if (mode === 'single') return text.trim() ? [singleKey(text)] : [];
  return splitKeys(text);
}

export { splitModels };
