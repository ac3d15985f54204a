/**
 * `global.chat_completions_to_responses_policy` (family option): which chat requests are sent to the upstream's
 * Responses API instead of chat completions, for models that only answer there. Shape as the family stores it:
 * `{"enabled": true, "all_channels": false, "channel_ids": [1], "channel_types": [1], "model_patterns": ["^o1-pro"]}`.
 */
export interface ResponsesPolicy {
  enabled: boolean;
  allChannels: boolean;
  channelIds: readonly number[];
  channelTypes: readonly number[];
  modelPatterns: readonly RegExp[];
}

/**
 * A pattern written for the family's Go regexp: a leading `(?i)` (Go's inline flag, which JavaScript lacks) becomes
 * the `i` flag; null when the pattern is not a valid regular expression.
 */
export function goPattern(pattern: string): RegExp | null {
  const text = pattern.trim();
  const insensitive = text.startsWith('(?i)');
  try {
    return new RegExp(insensitive ? text.slice(4) : text, insensitive ? 'i' : '');
  } catch {
    return null;
  }
}

const isIdList = (value: unknown) =>
  value === undefined || (Array.isArray(value) && value.every((v) => Number.isInteger(v) && v > 0));

/** The policy in a stored value, or null when the value is not one (wrong types, a pattern that does not compile). */
export function parseResponsesPolicy(value: unknown): ResponsesPolicy | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const raw = value as Record<string, unknown>;
  if (raw.enabled !== undefined && typeof raw.enabled !== 'boolean') return null;
  if (raw.all_channels !== undefined && typeof raw.all_channels !== 'boolean') return null;
  if (!isIdList(raw.channel_ids) || !isIdList(raw.channel_types)) return null;
  const patterns = raw.model_patterns ?? [];
  if (!Array.isArray(patterns) || !patterns.every((p) => typeof p === 'string')) return null;
  const modelPatterns: RegExp[] = [];
  for (const pattern of patterns as string[]) {
    if (pattern.trim() === '') continue;
    const compiled = goPattern(pattern);
    if (!compiled) return null;
    modelPatterns.push(compiled);
  }
  return {
    enabled: raw.enabled === true,
    allChannels: raw.all_channels === true,
    channelIds: (raw.channel_ids as number[] | undefined) ?? [],
    channelTypes: (raw.channel_types as number[] | undefined) ?? [],
    modelPatterns,
  };
}

/** Whether a chat request for `model` on this channel goes through the Responses API under the policy. */
export function responsesPolicyApplies(policy: ResponsesPolicy, channelId: number, channelType: number, model: string) {
  if (!policy.enabled) return false;
  const channelMatches =
    policy.allChannels || policy.channelIds.includes(channelId) || policy.channelTypes.includes(channelType);
  return channelMatches && policy.modelPatterns.some((pattern) => pattern.test(model));
}
