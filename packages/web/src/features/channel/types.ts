// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type {
  ChannelView as Channel,
  ChannelTestView as ChannelTestResult,
  ChannelTestProgressView as TestAllProgress,
} from '@gateway/shared';

export type { Channel, ChannelTestResult, TestAllProgress };

export interface ChannelListQuery {
  page: number;
  pageSize: number;
  idSort: boolean;
  tagMode: boolean;
  keyword: string;
  group: string;
  model: string;
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
