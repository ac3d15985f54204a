import type { TaskRow } from '../../../db/schema.js';

export function parseJsonColumn(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A task in the Suno API's fetch format (`TaskDto`). */
export function sunoTaskDto(row: TaskRow) {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    data: parseJsonColumn(row.data),
  };
}
