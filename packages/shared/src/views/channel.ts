// Channel answers of the admin API (`/api/channel/…`).

/** A channel as the admin API returns it. `key` is always '' (keys never leave the server). */
export interface ChannelView {
  id: number;
  name: string;
  type: number;
  key: string;
  openai_organization: string | null;
  test_model: string | null;
  /** 1 enabled, 2 disabled by hand, 3 disabled automatically (ChannelStatus). */
  status: number;
  weight: number;
  created_time: number;
  test_time: number;
  /** Milliseconds of the last test. */
  response_time: number;
  base_url: string | null;
  other: string | null;
  balance: number;
  balance_updated_time: number;
  /** Comma string. */
  models: string | null;
  /** Comma string. */
  group: string;
  used_quota: number;
  model_mapping: string | null;
  status_code_mapping: string | null;
  priority: number;
  /** 1 or 0. */
  auto_ban: number;
  /** JSON text `{status_reason, status_time}` for automatically disabled channels. */
  other_info: string | null;
  tag: string | null;
  setting: string | null;
  param_override: string | null;
  header_override: string | null;
  remark: string | null;
  max_input_tokens: number;
  /** The family's "other settings" JSON text ('' when none): the upstream model watch (`upstream_model_update_*`). */
  settings?: string | null;
  /**
   * Set while a channel in the `auto` Responses mode goes through chat completions because its upstream answered
   * 404/405 on `/responses` (unix seconds: when native is tried again). Per node; absent otherwise.
   */
  responses_via_chat_until?: number;
}

/** `GET /api/channel/test/{id}`. */
export interface ChannelTestView {
  success: boolean;
  message: string;
  /** Seconds. */
  time: number;
}

/** `GET /api/channel/test/progress`. */
export interface ChannelTestProgressView {
  running: boolean;
  total: number;
  done: number;
  failed: number;
  started_at: number;
  finished_at: number;
  results: Array<{ id: number; name: string; success: boolean; time: number; message: string }>;
}
