import type { TaskVideoView } from '@gateway/shared';
import dayjs from 'dayjs';
import type { ListFilters } from '../../components/list/record-view';

/** Tag colour and label key of each async-task status (spec 001 §4); '' means still submitting. */
export const TASK_STATUSES: Record<string, { color: string; labelKey: string }> = {
  NOT_START: { color: 'default', labelKey: 'task.status_not_start' },
  SUBMITTED: { color: 'blue', labelKey: 'task.status_submitted' },
  QUEUED: { color: 'geekblue', labelKey: 'task.status_queued' },
  IN_PROGRESS: { color: 'processing', labelKey: 'task.status_in_progress' },
  SUCCESS: { color: 'success', labelKey: 'task.status_success' },
  FAILURE: { color: 'error', labelKey: 'task.status_failure' },
  UNKNOWN: { color: 'default', labelKey: 'task.status_unknown' },
  '': { color: 'default', labelKey: 'task.status_submitting' },
};

export function taskStatusInfo(status: string) {
  return TASK_STATUSES[status] ?? TASK_STATUSES.UNKNOWN!;
}

/**
 * Tag colour and label key of each task action: Suno's two, and the family's four video actions (text-to-video,
 * image-to-video, first-and-last-frame, reference video). An action not listed shows as its raw name.
 */
export const TASK_ACTIONS: Record<string, { color: string; labelKey: string }> = {
  MUSIC: { color: 'purple', labelKey: 'task.action_music' },
  LYRICS: { color: 'cyan', labelKey: 'task.action_lyrics' },
  textGenerate: { color: 'geekblue', labelKey: 'task.action_text_to_video' },
  generate: { color: 'blue', labelKey: 'task.action_image_to_video' },
  firstTailGenerate: { color: 'volcano', labelKey: 'task.action_first_last_frame' },
  referenceGenerate: { color: 'gold', labelKey: 'task.action_reference_video' },
};

export function taskActionInfo(action: string): { color: string; labelKey: string | null } {
  return TASK_ACTIONS[action] ?? { color: 'cyan', labelKey: null };
}

/** What a video task asked for, in the order a person reads it: length, then size (or resolution), then ratio. */
export function videoShapeParts(video: TaskVideoView): { seconds: number | null; frame: string[] } {
  const frame = [video.size, video.resolution, video.aspect_ratio].filter(
    (part, index, all): part is string => Boolean(part) && all.indexOf(part) === index,
  );
  return { seconds: video.seconds, frame };
}

/** Spec 001 §9: the task log starts at the start of today; the end stays an hour ahead so new tasks show. */
export function defaultTaskFilters(now = dayjs()): ListFilters {
  return { channel: '', id: '', start: now.startOf('day'), end: now.add(1, 'hour') };
}
