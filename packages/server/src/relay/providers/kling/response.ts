import type { UpstreamError } from '../../types.js';
import type { VideoProgress, VideoStatus, VideoSubmitted } from '../../video-types.js';
import { readUpstreamError } from '../errors.js';
import { envelopeOf, submittedTask } from '../video-envelope.js';

/** Kling's envelope, for submits, polls and errors alike: `code` 0 is success, anything else its refusal. */
interface KlingEnvelope {
  code?: number;
  message?: string;
  request_id?: string;
  data?: {
    task_id?: string;
    task_status?: string;
    task_status_msg?: string;
    task_result?: { videos?: Array<{ id?: string; url?: string; duration?: string | number }> };
  };
}

const asEnvelope = (json: unknown) => envelopeOf<KlingEnvelope>(json);

/** A submit's answer: the task id (already `<action>:<id>`, see provider.ts), or Kling's refusal in a 2xx envelope. */
export function readKlingSubmit(json: unknown): VideoSubmitted {
  const answer = asEnvelope(json);
  if (answer.code !== undefined && answer.code !== 0) {
    return { refused: answer.message || `Kling refused the task (code ${answer.code})` };
  }
  return submittedTask(answer.data?.task_id, 'Kling');
}

const STATUS: Record<string, VideoStatus> = {
  submitted: 'queued',
  processing: 'in_progress',
  succeed: 'completed',
  failed: 'failed',
};

/**
 * A poll's answer. Kling reports no percentage: 0 until the end, 100 when it succeeded. An answer without a known
 * `task_status` (another envelope, a refusal) is unreadable and throws, so the poller asks again later.
 */
export function readKlingPoll(json: unknown, upstreamId: string): VideoProgress {
  const answer = asEnvelope(json);
  if (answer.code !== undefined && answer.code !== 0) {
    throw new Error(`Kling refused the poll: ${answer.message ?? answer.code}`);
  }
  const vendorStatus = answer.data?.task_status;
  const status = vendorStatus ? STATUS[vendorStatus] : undefined;
  if (!status) throw new Error(`Kling poll answer without a known task_status: ${String(vendorStatus)}`);
  const progress: VideoProgress = { upstreamId, status, progress: status === 'completed' ? 100 : 0 };
  if (status === 'failed') progress.reason = answer.data?.task_status_msg || 'Kling reported the task failed';
  const video = answer.data?.task_result?.videos?.[0];
  if (status === 'completed' && video) {
    if (video.url) progress.url = video.url;
    const seconds = Number(video.duration);
    if (video.duration !== undefined && video.duration !== '' && Number.isFinite(seconds) && seconds > 0) {
      progress.seconds = seconds;
    }
  }
  return progress;
}

/** A non-2xx answer: Kling's `{code, message, request_id}` (401 with 1000–1004 for the token, 400 with 12xx…). */
export function klingError(status: number, text: string): UpstreamError {
  try {
    const answer = asEnvelope(JSON.parse(text));
    if (typeof answer.code === 'number' && typeof answer.message === 'string') {
      return { status, message: answer.message, type: 'kling_error', code: String(answer.code) };
    }
  } catch {
    // not Kling's envelope: read below
  }
  return readUpstreamError(status, text);
}
