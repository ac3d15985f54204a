import type { CachedChannel } from '../../cache/channel-cache.js';
import { withHeaderOverride } from '../overrides/apply.js';
import type { Provider } from '../provider.js';
import { sendUpstream, type UpstreamResponse } from '../send.js';
import type { RuntimeChannel, UpstreamCall } from '../types.js';

/** A channel as task calls need it: a cached channel's header override applies when it has one. */
export type TaskChannel = RuntimeChannel & Partial<Pick<CachedChannel, 'headerOverride'>>;

const CALL_TIMEOUT_MS = 30_000;

/** A vendor's small JSON answer, read whole. `json` is null when the body is not JSON. */
export interface VendorAnswer {
  status: number;
  text: string;
  json: unknown;
}

/**
 * Sends one call of a task vendor the way the conveyor would: with the channel's header override (a proxy in front
 * of the vendor may want its own header), through the provider's `open` when it has one (so Kling's token and
 * Jimeng's signature are made in one place, for polls as for submits), else as a plain request.
 */
export function openVendorCall(
  provider: Provider,
  channel: TaskChannel,
  call: UpstreamCall,
  timeoutMs = CALL_TIMEOUT_MS,
): Promise<UpstreamResponse> {
  const override = channel.headerOverride;
  const sent = override
    ? { ...call, headers: withHeaderOverride(call.headers, { key: channel.key, headerOverride: override }) }
    : call;
  return provider.open ? provider.open(sent, channel, { timeoutMs, stream: false }) : sendUpstream(sent, { timeoutMs });
}

/** `openVendorCall` with the answer read whole and parsed (polls and deletes answer small JSON documents). */
export async function callVendor(
  provider: Provider,
  channel: TaskChannel,
  call: UpstreamCall,
  timeoutMs = CALL_TIMEOUT_MS,
): Promise<VendorAnswer> {
  const response = await openVendorCall(provider, channel, call, timeoutMs);
  const text = await response.body.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.statusCode, text, json };
}
