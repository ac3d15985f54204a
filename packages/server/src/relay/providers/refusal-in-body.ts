import { type SendOptions, sendUpstream, type UpstreamResponse } from '../send.js';
import type { UpstreamCall } from '../types.js';
import { UpstreamBody } from '../upstream-exchange.js';

/** An answer the provider already holds whole: a refusal read from a 200 body, a token refusal, assembled frames. */
export function wholeResponse(statusCode: number, text: string, contentType = 'application/json'): UpstreamResponse {
  // Already in memory (read under the answer limit where it came from the network): no limit to apply again.
  const body = new UpstreamBody(Number.POSITIVE_INFINITY);
  body.push(Buffer.from(text));
  body.finish();
  return { statusCode, headers: { 'content-type': contentType }, body };
}

/**
 * Sends the call. Some vendors (Baidu, Tencent, Zhipu's legacy API) refuse with HTTP 200 and an error in a JSON body,
 * for streamed requests too: such an answer comes back with the status it means (`statusOf`, null when the body is
 * no error), so the conveyor retries, disables the channel and answers the client as for any other refusal. Event
 * streams pass untouched.
 */
export async function sendSeeingRefusals(
  call: UpstreamCall,
  options: SendOptions,
  statusOf: (json: Record<string, unknown>) => number | null,
): Promise<UpstreamResponse> {
  const response = await sendUpstream(call, options);
  if (response.statusCode !== 200 || !String(response.headers['content-type'] ?? '').includes('json')) return response;
  const text = await response.body.text();
  let status: number | null = null;
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === 'object' && !Array.isArray(json)) status = statusOf(json as Record<string, unknown>);
  } catch {
    // Not JSON after all: the conveyor's reader answers it as a bad response.
  }
  return wholeResponse(status ?? 200, text);
}
