import { type ChannelFormError, channelType, joinModels, normaliseBaseUrl, splitModels } from '@gateway/shared';
import type { Channel, ChannelPayload } from './types';

/** The channel form's state: lists where the wire has comma text, a switch where it has 1/0. */
export interface ChannelFormValues {
  type: number;
  name: string;
  base_url: string;
  other: string;
  key: string;
  /** Create only: one channel per key line. */
  batch: boolean;
  models: string[];
  groups: string[];
  model_mapping: string;
  status_code_mapping: string;
  param_override: string;
  header_override: string;
  setting: string;
  test_model: string;
  priority: number | null;
  weight: number | null;
  auto_ban: boolean;
  tag: string;
  openai_organization: string;
  remark: string;
  max_input_tokens: number | null;
}

export const DEFAULT_CHANNEL_TYPE = 1;
export const DEFAULT_CHANNEL_GROUP = 'default';

export function newChannelValues(): ChannelFormValues {
  return {
    type: DEFAULT_CHANNEL_TYPE,
    name: '',
    base_url: '',
    other: channelType(DEFAULT_CHANNEL_TYPE)?.otherDefault ?? '',
    key: '',
    batch: false,
    models: [],
    groups: [DEFAULT_CHANNEL_GROUP],
    model_mapping: '',
    status_code_mapping: '',
    param_override: '',
    header_override: '',
    setting: '',
    test_model: '',
    priority: 0,
    weight: 0,
    auto_ban: true,
    tag: '',
    openai_organization: '',
    remark: '',
    max_input_tokens: 0,
  };
}

/** A stored channel as form values; the key field starts empty (keys never come back from the server). */
export function channelValues(channel: Channel): ChannelFormValues {
  return {
    type: channel.type,
    name: channel.name,
    base_url: channel.base_url ?? '',
    other: channel.other ?? '',
    key: '',
    batch: false,
    models: splitModels(channel.models ?? ''),
    groups: splitModels(channel.group ?? ''),
    model_mapping: channel.model_mapping ?? '',
    status_code_mapping: channel.status_code_mapping ?? '',
    param_override: channel.param_override ?? '',
    header_override: channel.header_override ?? '',
    setting: channel.setting ?? '',
    test_model: channel.test_model ?? '',
    priority: channel.priority,
    weight: channel.weight,
    auto_ban: channel.auto_ban !== 0,
    tag: channel.tag ?? '',
    openai_organization: channel.openai_organization ?? '',
    remark: channel.remark ?? '',
    max_input_tokens: channel.max_input_tokens ?? 0,
  };
}

/** Form values as the API takes them: comma text, 1/0, normalised base URL, trimmed JSON. */
export function channelPayload(values: ChannelFormValues): ChannelPayload {
  const text = (value: string | undefined) => (value ?? '').trim();
  return {
    name: text(values.name),
    type: values.type,
    key: text(values.key),
    base_url: normaliseBaseUrl(values.base_url ?? ''),
    other: text(values.other),
    models: joinModels(values.models ?? []),
    group: joinModels(values.groups ?? []),
    groups: splitModels(values.groups ?? []),
    model_mapping: text(values.model_mapping),
    status_code_mapping: text(values.status_code_mapping),
    param_override: text(values.param_override),
    header_override: text(values.header_override),
    setting: text(values.setting),
    test_model: text(values.test_model),
    priority: values.priority ?? null,
    weight: values.weight ?? null,
    auto_ban: values.auto_ban ? 1 : 0,
    tag: text(values.tag),
    openai_organization: text(values.openai_organization),
    remark: text(values.remark),
    max_input_tokens: values.max_input_tokens ?? 0,
  };
}

/** The form field a validation error belongs to, so the message can sit under it too. */
export function fieldOfError(error: ChannelFormError, values: ChannelFormValues): keyof ChannelFormValues {
  switch (error.code) {
    case 'channel_name_key_required':
      return values.name.trim() ? 'key' : 'name';
    case 'channel_type_invalid':
      return 'type';
    case 'channel_models_required':
      return 'models';
    case 'channel_groups_required':
      return 'groups';
    case 'channel_base_url_invalid':
      return 'base_url';
    case 'channel_model_mapping_invalid':
      return 'model_mapping';
    case 'channel_json_invalid':
      return String(error.params?.field ?? 'setting') as keyof ChannelFormValues;
    case 'channel_priority_invalid':
      return 'priority';
    case 'channel_weight_invalid':
      return 'weight';
  }
}
