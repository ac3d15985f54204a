/** A channel as the admin API returns it. `key` is always '' (keys never leave the server). */
export interface Channel {
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
}

export interface ChannelListQuery {
  page: number;
  pageSize: number;
  idSort: boolean;
  tagMode: boolean;
  keyword: string;
  group: string;
  model: string;
}

/** `GET /api/channel/test/{id}`. */
export interface ChannelTestResult {
  success: boolean;
  message: string;
  /** Seconds. */
  time: number;
}

/** `GET /api/channel/test/progress`. */
export interface TestAllProgress {
  running: boolean;
  total: number;
  done: number;
  failed: number;
  started_at: number;
  finished_at: number;
  results: Array<{ id: number; name: string; success: boolean; time: number; message: string }>;
}

/** The fields the channel form sends (create wraps them as `{mode, channel}`; edit adds the id). */
export interface ChannelPayload {
  name: string;
  type: number;
  key: string;
  base_url: string;
  other: string;
  models: string;
  group: string;
  groups: string[];
  model_mapping: string;
  status_code_mapping: string;
  param_override: string;
  header_override: string;
  setting: string;
  test_model: string;
  priority: number | null;
  weight: number | null;
  auto_ban: number;
  tag: string;
  openai_organization: string;
  remark: string;
  max_input_tokens: number;
}

/** `PUT /api/channel/tag`: what an edit of every channel under one tag may change. */
export interface TagEdit {
  tag: string;
  new_tag?: string;
  model_mapping?: string;
  groups?: string[];
  models?: string;
  priority?: number;
  weight?: number;
}
