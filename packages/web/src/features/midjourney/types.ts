/** A drawing task as `GET /api/mj/self` (own) or `GET /api/mj/` (admin) returns it. Times in milliseconds. */
export interface DrawingItem {
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
