import type { UpstreamError } from '../../types.js';
import type { VideoProgress, VideoStatus, VideoSubmitted } from '../../video-types.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A submit answer: `{task_id, state, …}`. Vidu answers 200 with `state: "failed"` for a task it took in and refused
 * at once; the family treats that as a refusal, so do we.
 */
export function readViduSubmit(json: unknown): VideoSubmitted {
  if (!isRecord(json)) throw new Error('Vidu submit answer is not a JSON object');
  if (json.state === 'failed') {
    const reason = typeof json.err_code === 'string' && json.err_code ? json.err_code : 'task failed';
    return { refused: reason };
  }
  const id = json.task_id;
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') {
    throw new Error('Vidu submit answer has no task_id');
  }
  return { upstreamId: String(id) };
}

const STATUS: Record<string, VideoStatus> = {
  created: 'queued',
  queueing: 'queued',
  processing: 'in_progress',
  success: 'completed',
  failed: 'failed',
};

/**
 * A poll answer (`GET /ent/v2/tasks/{id}/creations`): `{state, err_code, creations: [{url, cover_url}]}`. Vidu reports
 * no percentage, so a running task is 0 % and a finished one 100 %. A state we do not know is unreadable (the family
 * refuses it too), so the poller asks again rather than guessing.
 */
export function readViduPoll(json: unknown, upstreamId: string): VideoProgress {
  if (!isRecord(json) || typeof json.state !== 'string') throw new Error('Vidu poll answer has no state');
  const status = STATUS[json.state];
  if (!status) throw new Error(`Vidu poll answer has an unknown state: ${json.state}`);
  const progress: VideoProgress = { upstreamId, status, progress: status === 'completed' ? 100 : 0 };
  if (status === 'completed') {
    const creations = Array.isArray(json.creations) ? json.creations : [];
    const first = creations.find((creation) => isRecord(creation) && typeof creation.url === 'string' && creation.url);
    if (isRecord(first)) progress.url = String(first.url);
  }
  if (status === 'failed') {
    progress.progress = 100;
    progress.reason = typeof json.err_code === 'string' && json.err_code ? json.err_code : 'task failed';
  }
  return progress;
}

/**
 * Vidu's error body: `{code, reason, message, metadata}` (HTTP status in `code`, the error's name in `reason`, e.g.
 * `Unauthorized`, `FieldInvalid`, `AuditSubmitIllegal`, `CreditInsufficient`). Anything else is read as text.
 */
export function viduError(status: number, text: string): UpstreamError {
  try {
    const body = JSON.parse(text) as unknown;
    if (isRecord(body)) {
      const error = isRecord(body.error) ? body.error : body;
      const reason = typeof error.reason === 'string' ? error.reason : null;
      const message = typeof error.message === 'string' && error.message ? error.message : (reason ?? text);
      const code = reason ?? (error.code === undefined || error.code === null ? null : String(error.code));
      return { status, message: message.slice(0, 500), type: 'vidu_error', code };
    }
  } catch {
    // not JSON: the text is the message
  }
  return { status, message: text.trim().slice(0, 500) || `HTTP ${status}`, type: 'vidu_error', code: null };
}
