import type { TaskVideoView, TaskView } from '@gateway/shared';
import type { TaskRow } from '../../db/schema.js';
import { parseJsonColumn } from './suno/view.js';
import { videoPlatforms } from './video/platforms.js';
import { videoFacts, videoSecrets } from './video/task-record.js';

/** A video task's facts for the console: the asked shape, and the same-origin file route once it is finished. */
function videoView(row: TaskRow): TaskVideoView {
  const facts = videoFacts(row);
  const deleted = videoSecrets(row).deleted === true;
  return {
    seconds: facts.seconds ?? null,
    size: facts.size ?? null,
    resolution: facts.resolution ?? null,
    aspect_ratio: facts.aspect_ratio ?? null,
    content_url: row.status === 'SUCCESS' && !deleted ? `/v1/videos/${encodeURIComponent(row.task_id)}/content` : null,
    deleted,
  };
}

/**
 * A task (Suno or video) as the console lists it (`/api/task/…`). `private_data` (who paid, the vendor's id and
 * file URL) never leaves the server; the channel is shown to admins only.
 */
export function taskListItem(row: TaskRow, admin: boolean): TaskView {
  const { private_data: _private, channel_id, properties, data, ...rest } = row;
  return {
    ...rest,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    quota: Number(row.quota),
    user_id: Number(row.user_id),
    properties: parseJsonColumn(properties),
    data: parseJsonColumn(data),
    ...(admin ? { channel_id } : {}),
    ...(videoPlatforms().includes(row.platform) ? { video: videoView(row) } : {}),
  };
}
