import { randomBytes } from 'node:crypto';
import type { TaskPayer } from '../../../billing/task-settlement.js';
import type { TaskRow } from '../../../db/schema.js';
import type { VideoRequest, VideoStatus } from '../../video-types.js';

/**
 * How a video task sits in the family's `tasks` table, so a database moved from the family (or back) reads the
 * same: `platform` is the channel type's number, `task_id` the public id clients use (never the vendor's), `action`
 * the family's action name, `status` the family's status words. What the vendor must never learn or the client never
 * see lives in `private_data`; `data` holds what the request asked for, which the console and the views show.
 */

/** The family's public task ids: `task_` and 32 letters and digits. */
export function newPublicTaskId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(32);
  let id = 'task_';
  // 62 does not divide 256: the few values past 247 are mapped again, a bias too small to matter for an id.
  for (const byte of bytes) id += alphabet[byte % 62];
  return id;
}

/** The family's video action names: what the task started from. */
export function videoAction(request: VideoRequest): string {
  if (request.images.some((image) => image.role === 'last_frame')) return 'firstTailGenerate';
  if (request.images.some((image) => image.role === 'reference')) return 'referenceGenerate';
  return request.images.length > 0 ? 'generate' : 'textGenerate';
}

const STATUS_WORDS: Record<VideoStatus, string> = {
  queued: 'QUEUED',
  in_progress: 'IN_PROGRESS',
  completed: 'SUCCESS',
  failed: 'FAILURE',
};

export const familyStatus = (status: VideoStatus) => STATUS_WORDS[status];

/** The OpenAI video status of a stored task (the family's NOT_START, SUBMITTED, QUEUED and UNKNOWN all queue). */
export function videoStatusOf(row: Pick<TaskRow, 'status'>): VideoStatus {
  switch (row.status) {
    case 'IN_PROGRESS':
      return 'in_progress';
    case 'SUCCESS':
      return 'completed';
    case 'FAILURE':
      return 'failed';
    default:
      return 'queued';
  }
}

/** What the client asked for, as shown back to it (`data`). */
export interface VideoFacts {
  seconds: number | null;
  size: string | null;
  resolution: string | null;
  aspect_ratio: string | null;
}

/** What stays on the server: who pays, the vendor's id and file URL, the price ratios, the poll's error count. */
export interface VideoSecrets {
  payer: TaskPayer;
  upstream_task_id: string;
  upstream_model: string;
  result_url?: string;
  ratios: Record<string, number>;
  /** Quota per unit of the product of `ratios` (what one more second costs at settlement). */
  unit_quota: number;
  /** For a model priced per token on a vendor that counts them: quota per token (model ratio × group ratio). */
  quota_per_token?: number;
  /** Unreadable or failed poll answers in a row; past the limit the task fails and is refunded. */
  poll_errors?: number;
  /** The owner deleted the video (`DELETE /v1/videos/{id}`): it answers 404 from then on. */
  deleted?: boolean;
}

function parseObject<T>(text: string | null | undefined): Partial<T> {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Partial<T>) : {};
  } catch {
    return {};
  }
}

export const videoFacts = (row: Pick<TaskRow, 'data'>) => parseObject<VideoFacts>(row.data);
export const videoSecrets = (row: Pick<TaskRow, 'private_data'>) => parseObject<VideoSecrets>(row.private_data);
export const videoProperties = (row: Pick<TaskRow, 'properties'>) =>
  parseObject<{ origin_model_name: string; upstream_model_name: string; input: string }>(row.properties);

/** The progress column ("45%") as a number. */
export function progressNumber(row: Pick<TaskRow, 'progress'>): number {
  const value = Number.parseInt(String(row.progress ?? '').replace('%', ''), 10);
  return Number.isFinite(value) ? Math.max(0, Math.min(100, value)) : 0;
}
