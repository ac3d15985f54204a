import type { TaskRow } from '../../../db/schema.js';
import { progressNumber, videoFacts, videoProperties, videoStatusOf } from './task-record.js';

/** Where the owner downloads the finished file: through this gateway, never at the vendor. */
export const contentUrlOf = (base: string, row: Pick<TaskRow, 'task_id'>) =>
  `${base}/v1/videos/${encodeURIComponent(row.task_id)}/content`;

/**
 * A task as OpenAI's Videos API describes a video (what the `openai` SDK's `videos` client reads), plus the family's
 * `task_id` (old scripts read it) and `metadata.url`, the gateway's link to the finished file.
 */
export function openAiVideo(row: TaskRow, base: string) {
  const facts = videoFacts(row);
  const status = videoStatusOf(row);
  const finished = Number(row.finish_time);
  return {
    id: row.task_id,
    task_id: row.task_id,
    object: 'video' as const,
    model: videoProperties(row).origin_model_name ?? '',
    status,
    progress: status === 'completed' ? 100 : progressNumber(row),
    created_at: Number(row.submit_time),
    completed_at: status === 'completed' && finished > 0 ? finished : null,
    expires_at: null,
    prompt: videoProperties(row).input ?? null,
    seconds: facts.seconds ? String(facts.seconds) : '',
    size: facts.size ?? '',
    remixed_from_video_id: null,
    error: status === 'failed' ? { code: 'video_generation_failed', message: row.fail_reason || 'failed' } : null,
    ...(status === 'completed' ? { metadata: { url: contentUrlOf(base, row) } } : {}),
  };
}

/**
 * A task as the family's `GET /v1/video/generations/{task_id}` answers it (its TaskDto in `{code, data}`): the
 * result URL is the gateway's; the vendor's answer and who paid are not shown.
 */
export function familyVideoTask(row: TaskRow, base: string) {
  const status = videoStatusOf(row);
  return {
    id: Number(row.id),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    task_id: row.task_id,
    platform: row.platform,
    user_id: Number(row.user_id),
    group: row.group,
    channel_id: Number(row.channel_id),
    quota: Number(row.quota),
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    ...(status === 'completed' ? { result_url: contentUrlOf(base, row) } : {}),
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    properties: videoProperties(row),
    data: { ...videoFacts(row), status, progress: status === 'completed' ? 100 : progressNumber(row) },
  };
}
