import type { Provider } from '../../provider.js';
import type { UpstreamError } from '../../types.js';
import { taskCall } from '../task-call.js';
import { tasksById } from '../task-poll.js';

/** Ids per fetch call, as for Midjourney's list. */
const SUNO_FETCH_MAX = 1000;

/** The Suno API answers `{code, message, data}`; its `code` ("fail", …) is what Suno clients branch on. */
function sunoError(status: number, text: string): UpstreamError {
  let message = text.trim().slice(0, 300);
  let code = 'fail_to_submit';
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.message === 'string' && body.message) message = body.message;
    if (typeof body.code === 'string' && body.code) code = body.code;
  } catch {
    // plain text
  }
  return { status, message: message || `HTTP ${status}`, type: 'upstream_error', code };
}

export const sunoProvider: Provider = {
  functions: {
    suno: {
      call: (channel, path, body) => taskCall(channel, path, body, { authorization: `Bearer ${channel.key}` }),
      // `POST /suno/fetch {ids, action}` answers `{code: "success", data: [task…]}`.
      poll: {
        size: SUNO_FETCH_MAX,
        call: (channel, ids) =>
          taskCall(channel, '/suno/fetch', { ids, action: '' }, { authorization: `Bearer ${channel.key}` }),
        read(json) {
          const body = json as { code?: unknown; data?: unknown } | null;
          if (body?.code !== 'success' || !Array.isArray(body.data)) throw new Error('suno fetch: not a task list');
          return tasksById(body.data, 'task_id');
        },
      },
    },
  },
  error: sunoError,
};
