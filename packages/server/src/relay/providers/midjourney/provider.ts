import type { Provider } from '../../provider.js';
import type { UpstreamError } from '../../types.js';
import { taskCall } from '../task-call.js';
import { tasksById } from '../task-poll.js';

/** Ids per list-by-condition call: the family's TASK_QUERY_LIMIT default, so one call covers a pass. */
const LIST_BY_CONDITION_MAX = 1000;

/** midjourney-proxy answers errors as `{code, description}` (sometimes plain text from a proxy in front). */
function midjourneyError(status: number, text: string): UpstreamError {
  let message = text.trim().slice(0, 300);
  try {
    const body = JSON.parse(text) as { description?: unknown; message?: unknown };
    const described = body.description ?? body.message;
    if (typeof described === 'string' && described) message = described;
  } catch {
    // plain text
  }
  return { status, message: message || `HTTP ${status}`, type: 'upstream_error', code: 'upstream_error' };
}

/** Midjourney-proxy: the submit path goes upstream as called (a mode prefix such as `/fast` picks the speed). */
export const midjourneyProvider: Provider = {
  functions: {
    midjourney: {
      call: (channel, path, body) => taskCall(channel, path, body, { 'mj-api-secret': channel.key }),
      // `POST /mj/task/list-by-condition {ids}` answers a bare list of task objects.
      poll: {
        size: LIST_BY_CONDITION_MAX,
        call: (channel, ids) =>
          taskCall(channel, '/mj/task/list-by-condition', { ids }, { 'mj-api-secret': channel.key }),
        read(json) {
          if (!Array.isArray(json)) throw new Error('list-by-condition: not a list of tasks');
          return tasksById(json, 'id');
        },
      },
    },
  },
  error: midjourneyError,
};
