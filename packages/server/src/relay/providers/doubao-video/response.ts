import type { VideoProgress, VideoStatus, VideoSubmitted } from '../../video-types.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A submit answer: `{id}`. Ark refuses with a non-2xx `{error}` (read by `error()`), never inside a 2xx. */
export function readSeedanceSubmit(json: unknown): VideoSubmitted {
  if (!isRecord(json)) throw new Error('Ark submit answer is not a JSON object');
  if (isRecord(json.error)) return { refused: String(json.error.message ?? json.error.code ?? 'refused') };
  if (typeof json.id !== 'string' || !json.id) throw new Error('Ark submit answer has no id');
  return { upstreamId: json.id };
}

const STATUS: Record<string, VideoStatus> = {
  queued: 'queued',
  running: 'in_progress',
  succeeded: 'completed',
  failed: 'failed',
  cancelled: 'failed',
  expired: 'failed',
};

/**
 * A poll answer (`GET …/tasks/{id}`): `{id, status, content: {video_url}, usage, error, duration, …}`. Ark reports no
 * percentage: 0 % while queued or running, 100 % at the end. A status this table does not know is taken as still
 * running, as the family does (Ark adds states; the task is not lost for it).
 */
export function readSeedancePoll(json: unknown, upstreamId: string): VideoProgress {
  if (!isRecord(json) || typeof json.status !== 'string' || !json.status) {
    throw new Error('Ark poll answer has no status');
  }
  const status = STATUS[json.status] ?? 'in_progress';
  const finished = status === 'completed' || status === 'failed';
  const progress: VideoProgress = { upstreamId, status, progress: finished ? 100 : 0 };
  if (status === 'completed') {
    const url = isRecord(json.content) ? json.content.video_url : undefined;
    if (typeof url === 'string' && url) progress.url = url;
    if (typeof json.duration === 'number' && json.duration > 0) progress.seconds = json.duration;
    const usage = seedanceUsage(json);
    if (usage) progress.tokens = usage.totalTokens;
  }
  if (status === 'failed') {
    const error = isRecord(json.error) ? json.error : {};
    progress.reason =
      (typeof error.message === 'string' && error.message) ||
      (typeof error.code === 'string' && error.code) ||
      `task ${json.status}`;
  }
  return progress;
}

/**
 * The tokens Ark counted for a finished task (`usage.completion_tokens`, `usage.total_tokens`), or null. The family
 * settles a Seedance task by these when its model has a ModelRatio (per-token price) instead of a ModelPrice.
 */
export function seedanceUsage(json: unknown): { completionTokens: number; totalTokens: number } | null {
  if (!isRecord(json) || !isRecord(json.usage)) return null;
  const completion = Number(json.usage.completion_tokens ?? 0);
  const total = Number(json.usage.total_tokens ?? 0);
  if (!(total > 0) && !(completion > 0)) return null;
  return { completionTokens: completion > 0 ? completion : total, totalTokens: total > 0 ? total : completion };
}
