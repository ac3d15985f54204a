import type { CachedChannel } from '../../cache/channel-cache.js';
import { withHeaderOverride } from '../overrides/apply.js';
import { sendUpstream } from '../send.js';

const FETCH_TIMEOUT_MS = 30_000;

export interface TaskUpstreamAnswer {
  status: number;
  text: string;
  json: unknown;
}

export { joinUrl } from '../providers/task-call.js';

/**
 * One JSON call to a task upstream on `channel`; the body is read whole (task APIs answer small JSON documents).
 * The channel's header override applies as on every relay call (a proxy in front of the task API may want its
 * own header); param override does not: it is written for model requests, and task bodies are another API.
 */
export async function callTaskUpstream(
  channel: CachedChannel,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs = FETCH_TIMEOUT_MS,
): Promise<TaskUpstreamAnswer> {
  const response = await sendUpstream(
    {
      method,
      url,
      headers: withHeaderOverride(
        {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        channel,
      ),
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    { timeoutMs },
  );
  const text = await response.body.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.statusCode, text, json };
}
