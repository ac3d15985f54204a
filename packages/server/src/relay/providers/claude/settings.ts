import { claudeDefaultMaxTokens } from '../../model-suffix.js';
import type { OptionReader } from '../../provider.js';

/** What the `claude.*` options ask of a call to a Claude-wire upstream for one model. */
export interface ClaudeUpstreamSettings {
  /** max_tokens for a request that gives none (`claude.default_max_tokens`: the model's entry, else `default`). */
  defaultMaxTokens: number;
  /** Extra headers for the model (`claude.model_headers_settings`), e.g. `anthropic-beta` flags; values joined. */
  headers: Readonly<Record<string, string>>;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const WITHOUT_OPTIONS: ClaudeUpstreamSettings = Object.freeze({ defaultMaxTokens: 8192, headers: NO_HEADERS });
/** Joined headers per model, built once per option value (the store keeps the parsed value until it changes). */
const joinedCache = new WeakMap<object, Map<string, Readonly<Record<string, string>>>>();

/**
 * The `claude.*` option group for a Claude-wire upstream (Anthropic, and Claude on Bedrock or Vertex): call it with
 * the options the conveyor hands to the provider and the model name the upstream gets.
 */
export function claudeUpstreamSettings(options: OptionReader | undefined, model: string): ClaudeUpstreamSettings {
  if (!options) return WITHOUT_OPTIONS;
  return { defaultMaxTokens: claudeDefaultMaxTokens(options, model), headers: claudeModelHeaders(options, model) };
}

/** `claude.model_headers_settings` for a model (family: keyed by model name), its values joined. */
export function claudeModelHeaders(options: OptionReader | undefined, model: string): Readonly<Record<string, string>> {
  const table = options?.json<Record<string, unknown>>('claude.model_headers_settings');
  if (!table || !Object.hasOwn(table, model)) return NO_HEADERS;
  const configured = table[model];
  if (!configured || typeof configured !== 'object') return NO_HEADERS;
  let byModel = joinedCache.get(table);
  if (!byModel) {
    byModel = new Map();
    joinedCache.set(table, byModel);
  }
  let joined = byModel.get(model);
  if (!joined) {
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(configured)) {
      const value = headerList(Array.isArray(values) ? values : [values]);
      if (value) headers[name.toLowerCase()] = value;
    }
    joined = Object.freeze(headers);
    byModel.set(model, joined);
  }
  return joined;
}

/** Comma-separated header values, each once, in order (`a, b` and `b,c` → `a,b,c`). */
function headerList(values: readonly unknown[]): string {
  const seen = new Set<string>();
  for (const value of values) {
    for (const item of String(value ?? '').split(',')) {
      const trimmed = item.trim();
      if (trimmed) seen.add(trimmed);
    }
  }
  return [...seen].join(',');
}

/**
 * The configured headers added to a call's headers: a header the call already has (the client's own
 * `anthropic-beta` flags) keeps its values and gains the configured ones (family: merged, each value once).
 */
export function withClaudeModelHeaders(
  headers: Record<string, string>,
  configured: Readonly<Record<string, string>>,
): Record<string, string> {
  for (const [name, value] of Object.entries(configured)) {
    headers[name] = headers[name] ? headerList([headers[name], value]) : value;
  }
  return headers;
}
