// Async-task answers: Suno tasks (`/api/task/…`) and Midjourney drawings (`/api/mj/…`).

/** An async (Suno) task as `GET /api/task/self` (own) or `GET /api/task/` (admin) returns it. Times in seconds. */
export interface TaskView {
  id: number;
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: string;
  user_id: number;
  group: string;
  quota: number;
  action: string;
  /** NOT_START, SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE, UNKNOWN, or '' while submitting. */
  status: string;
  fail_reason: string | null;
  submit_time: number;
  start_time: number;
  finish_time: number;
  /** Usually "NN%"; shown as text when it is not a number. */
  progress: string;
  properties: unknown;
  data: unknown;
  /** Admins only. */
  channel_id?: number;
  /** Video tasks only: what was asked for, and where the console plays and downloads the finished file. */
  video?: TaskVideoView;
}

export interface TaskVideoView {
  /** Requested length in seconds, when known. */
  seconds: number | null;
  /** `WIDTHxHEIGHT`, `720p` or an aspect ratio: whichever the request named. */
  size: string | null;
  resolution: string | null;
  aspect_ratio: string | null;
  /** The gateway's file route (same origin, the console's session is enough); null until finished, or deleted. */
  content_url: string | null;
  /** The owner deleted it through the API: kept for the record, no longer playable. */
  deleted: boolean;
}

/** A drawing task as `GET /api/mj/self` (own) or `GET /api/mj/` (admin) returns it. Times in milliseconds. */
export interface MidjourneyView {
  id: number;
  code: number;
  user_id: number;
  action: string;
  mj_id: string;
  prompt: string | null;
  prompt_en: string | null;
  description: string | null;
  state: string | null;
  submit_time: number;
  start_time: number;
  finish_time: number;
  /** A same-origin `/mj/image/{id}` link when forwarding is on; '' until the upstream has an image. */
  image_url: string;
  video_url: string | null;
  status: string;
  /** "NN%". */
  progress: string;
  fail_reason: string | null;
  quota: number;
  created_at: number;
  /** Admins only. */
  channel_id?: number;
}
