import { Agent, request } from 'undici';
import type { UpstreamCall } from './types.js';

// One keep-alive pool for all upstream traffic. Channel base URLs are admin-configured and may be private on purpose
// (self-hosted Ollama), so this agent does not apply the outbound address policy.
const upstreamAgent = new Agent({ connections: 256, keepAliveTimeout: 90_000, pipelining: 1 });

export interface SendOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** undici's own header and body timeouts bound the wait, so no extra timer or combined signal per request. */
export async function sendUpstream(call: UpstreamCall, options: SendOptions) {
  return request(call.url, {
    method: call.method,
    headers: call.headers,
    body: call.body,
    dispatcher: upstreamAgent,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    signal: options.signal,
  });
}
