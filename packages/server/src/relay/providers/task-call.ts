import type { RuntimeChannel, UpstreamCall } from '../types.js';

export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** A JSON POST to a task API on the channel's base URL (task APIs answer small JSON documents). */
export function taskCall(
  channel: RuntimeChannel,
  path: string,
  body: unknown,
  auth: Record<string, string>,
): UpstreamCall {
  return {
    method: 'POST',
    url: joinUrl(channel.baseUrl, path),
    headers: { accept: 'application/json', 'content-type': 'application/json', ...auth },
    body: JSON.stringify(body),
  };
}
