// Usage-log answers: `GET /api/log/` (admin), `/api/log/self/` (own) and their stats.

/** A usage log row as `GET /api/log/self/` (own) or `GET /api/log/` (admin) returns it. */
export interface LogView {
  id: number;
  /** Unix seconds. */
  created_at: number;
  /** 0 unknown, 1 top-up, 2 consumption, 3 admin, 4 system, 5 error (LogType). */
  type: number;
  content: string | null;
  username: string;
  user_id: number;
  token_name: string;
  token_id: number;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Seconds. */
  use_time: number;
  /** A boolean on the wire (the family's type); 0/1 from older servers is read the same way. */
  is_stream: boolean | number;
  group: string;
  ip: string;
  request_id: string;
  /** JSON text (see LogOtherView), or '' when the row has none. */
  other: string;
  /** Admins only: the channel id and name that served the call. */
  channel?: number;
  channel_name?: string;
}

/** The parsed `other` column. Every field is optional: old rows and other log types carry only some. */
export interface LogOtherView {
  model_ratio?: number;
  completion_ratio?: number;
  group_ratio?: number;
  cache_tokens?: number;
  cache_ratio?: number;
  cache_creation_tokens?: number;
  /** -1 when the call was billed by ratio. */
  model_price?: number;
  /** First-token time in ms; -1 unknown. */
  frt?: number;
  is_model_mapped?: boolean;
  upstream_model_name?: string;
  local_count?: boolean;
  stream_status?: string;
  admin_info?: { use_channel?: Array<string | number> };
  status_code?: number;
  error_code?: string | number;
  /** Facts of a line the server wrote (see LogFacts in shared): rendered in the reader's language. */
  content_key?: string;
  content_params?: Record<string, string | number>;
  task_id?: string;
  action?: string;
  /** A fallback happened: the model the caller asked for, and every model tried in order (that one first). */
  requested_model?: string;
  fallback_chain?: string[];
  /** A relay error's words: the server already renders them into `content` in the reader's language. */
  message_code?: string;
  message_params?: Record<string, string | number>;
  [key: string]: unknown;
}

/** `GET /api/log/self/stat` and `/api/log/stat`. */
export interface LogStatView {
  quota: number;
  rpm: number;
  tpm: number;
}

/** `GET /api/log/self/cache_usage` and `/api/log/cache_usage`: prompt-cache hits per key and model, busiest first. */
export interface CacheUsageView {
  token_name: string;
  model_name: string;
  requests: number;
  prompt_tokens: number;
  /** The part of `prompt_tokens` the upstream served from its prompt cache. */
  cached_tokens: number;
}
