import type { CachedChannel } from '../../cache/channel-cache.js';
import type { UpstreamCall } from '../types.js';
import {
  applyParamOverride,
  InvalidOverrideError,
  type OverrideRefusal,
  type OverrideVariables,
} from './param-override.js';

/** The channel's `header_override` on top of `headers`, `{api_key}` replaced by the channel key (a new object). */
export function withHeaderOverride(
  headers: Record<string, string>,
  channel: Pick<CachedChannel, 'headerOverride' | 'key'>,
): Record<string, string> {
  const result = { ...headers };
  for (const [name, value] of Object.entries(channel.headerOverride ?? {})) {
    if (typeof value === 'string') result[name.toLowerCase()] = value.replaceAll('{api_key}', channel.key);
  }
  return result;
}

export type OverrideResult = { call: UpstreamCall } | { refusal: OverrideRefusal } | { invalid: string };

/**
 * Everything a channel changes about an upstream call, in the family's order: pass-through (the client's body as
 * it came, no param override), else `param_override` on the converted body, then `header_override` with
 * `{api_key}` replaced by the channel key.
 */
export function applyOverrides(
  call: UpstreamCall,
  channel: CachedChannel,
  variables: OverrideVariables,
  passThroughBody?: string,
): OverrideResult {
  let result = call;
  let headerEdits: Map<string, string | null> | null = null;
  if (passThroughBody !== undefined) {
    result = { ...result, body: passThroughBody };
  } else if (channel.paramOverride && typeof call.body === 'string' && call.body.startsWith('{')) {
    try {
      const outcome = applyParamOverride(JSON.parse(call.body), channel.paramOverride, variables);
      if (outcome.refusal) return { refusal: outcome.refusal };
      result = { ...result, body: JSON.stringify(outcome.body) };
      headerEdits = outcome.headers;
    } catch (error) {
      if (error instanceof InvalidOverrideError) return { invalid: error.message };
      throw error;
    }
  }
  if (channel.headerOverride || headerEdits?.size) {
    const headers = withHeaderOverride(result.headers, channel);
    for (const [name, value] of headerEdits ?? []) {
      if (value === null) delete headers[name];
      else headers[name] = value.replaceAll('{api_key}', channel.key);
    }
    result = { ...result, headers };
  }
  return { call: result };
}
