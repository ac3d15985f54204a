import type { UpstreamError } from '../../types.js';
import type { VideoProgress, VideoStatus, VideoSubmitted } from '../../video-types.js';
import { readUpstreamError } from '../errors.js';
import { envelopeOf, submittedTask } from '../video-envelope.js';

/** Jimeng's success code; anything else is its refusal (50411 image risk, 50412 text risk, 50429 limits…). */
export const JIMENG_OK = 10000;

/** The visual API's envelope for submits and polls; the OpenAPI gateway's own errors come in `ResponseMetadata`. */
interface JimengEnvelope {
  code?: number;
  message?: string;
  request_id?: string;
  data?: { task_id?: string; status?: string; video_url?: string } | null;
  ResponseMetadata?: { Error?: { Code?: string; CodeN?: number; Message?: string } };
}

const asEnvelope = (json: unknown) => envelopeOf<JimengEnvelope>(json);

/** A submit's answer: the task id (already `<req_key>:<task_id>`, see provider.ts), or Jimeng's refusal. */
export function readJimengSubmit(json: unknown): VideoSubmitted {
  const answer = asEnvelope(json);
  if (answer.code !== JIMENG_OK) {
    return { refused: answer.message || `Jimeng refused the task (code ${String(answer.code)})` };
  }
  return submittedTask(answer.data?.task_id, 'Jimeng');
}

const STATUS: Record<string, VideoStatus> = {
  in_queue: 'queued',
  generating: 'in_progress',
  done: 'completed',
  not_found: 'failed',
  expired: 'failed',
};

/**
 * A poll's answer. Jimeng reports no percentage (0 until done, then 100) and no length. A refusal code fails the
 * task with Jimeng's message, as the family does; an answer with no code or no known status is unreadable and throws.
 */
export function readJimengPoll(json: unknown, upstreamId: string): VideoProgress {
  const answer = asEnvelope(json);
  if (typeof answer.code !== 'number') throw new Error('Jimeng poll answer without a code');
  if (answer.code !== JIMENG_OK) {
    return { upstreamId, status: 'failed', progress: 0, reason: answer.message || `Jimeng code ${answer.code}` };
  }
  const vendorStatus = answer.data?.status;
  const status = vendorStatus ? STATUS[vendorStatus] : undefined;
  if (!status) throw new Error(`Jimeng poll answer without a known status: ${String(vendorStatus)}`);
  const progress: VideoProgress = { upstreamId, status, progress: status === 'completed' ? 100 : 0 };
  if (status === 'failed') progress.reason = `Jimeng task ${vendorStatus === 'expired' ? 'expired' : 'not found'}`;
  if (status === 'completed' && answer.data?.video_url) progress.url = answer.data.video_url;
  return progress;
}

/**
 * A non-2xx answer: the OpenAPI gateway's `ResponseMetadata.Error` (a signature or key it refuses) or the visual
 * API's `{code, message}` (a prompt refused by its risk control, a limit, an internal error).
 */
export function jimengError(status: number, text: string): UpstreamError {
  try {
    const answer = asEnvelope(JSON.parse(text));
    const gateway = answer.ResponseMetadata?.Error;
    if (gateway?.Code) {
      return { status, message: gateway.Message ?? gateway.Code, type: 'volcengine_error', code: gateway.Code };
    }
    if (typeof answer.code === 'number') {
      return {
        status,
        message: answer.message ?? String(answer.code),
        type: 'jimeng_error',
        code: String(answer.code),
      };
    }
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
