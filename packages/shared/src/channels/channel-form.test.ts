import { describe, expect, it } from 'vitest';
import { translate } from '../messages.js';
import {
  baseUrlEndsWithV1,
  CHANNEL_FORM_MESSAGES,
  CHANNEL_PRIORITY_MIN,
  type ChannelFormInput,
  joinModels,
  normaliseBaseUrl,
  parseJsonObjectField,
  resolveModelMapping,
  splitKeys,
  splitModels,
  validateChannelInput,
} from './channel-form.js';

describe('normaliseBaseUrl / baseUrlEndsWithV1', () => {
  it.each([
    ['https://api.openai.com', 'https://api.openai.com'],
    ['  https://api.openai.com/  ', 'https://api.openai.com'],
    ['https://x.example/api///', 'https://x.example/api'],
    ['https://x.example/v1/', 'https://x.example/v1'],
    ['', ''],
    ['   ', ''],
  ])('%j → %j', (input, out) => {
    expect(normaliseBaseUrl(input)).toBe(out);
  });

  it.each([
    ['https://x.example/v1', true],
    ['https://x.example/v1/', true],
    ['https://x.example/V1', true],
    ['https://x.example/v1beta', false],
    ['https://x.example/v1/chat', false],
    ['https://x.example', false],
    ['', false],
  ])('%j ends with /v1: %j', (input, out) => {
    expect(baseUrlEndsWithV1(input)).toBe(out);
  });
});

describe('splitKeys', () => {
  it.each([
    ['sk-a', ['sk-a']],
    ['sk-a\nsk-b', ['sk-a', 'sk-b']],
    ['  sk-a  \r\n\r\n sk-b\n', ['sk-a', 'sk-b']],
    ['sk-b\nsk-a\nsk-b', ['sk-b', 'sk-a']],
    ['AK|SK|us-east-1\nAK2|SK2|eu-west-1', ['AK|SK|us-east-1', 'AK2|SK2|eu-west-1']],
    ['', []],
    ['\n \n', []],
    ['{\n  "type": "service_account",\n  "project_id": "p"\n}', ['{"type":"service_account","project_id":"p"}']],
    ['[{"a": 1},\n {"a": 2}, {"a": 1}]', ['{"a":1}', '{"a":2}']],
    ['{"a":1}\n{"a":2}', ['{"a":1}', '{"a":2}']],
    ['{not json\nsk-b', ['{not json', 'sk-b']],
  ])('%j → %j', (input, out) => {
    expect(splitKeys(input)).toEqual(out);
  });
});

describe('splitModels / joinModels', () => {
  it.each<[string | string[], string[]]>([
    ['gpt-4o,gpt-4o-mini', ['gpt-4o', 'gpt-4o-mini']],
    [' gpt-4o , gpt-4o-mini ,', ['gpt-4o', 'gpt-4o-mini']],
    ['gpt-4o,gpt-4o', ['gpt-4o']],
    ['', []],
    [',, ,', []],
    [
      ['gpt-4o', ' o3 ', 'gpt-4o', ''],
      ['gpt-4o', 'o3'],
    ],
    [
      ['a,b', 'c'],
      ['a', 'b', 'c'],
    ],
    [[], []],
  ])('%j → %j', (input, out) => {
    expect(splitModels(input)).toEqual(out);
  });

  it.each<[string | string[], string]>([
    [['gpt-4o', 'o3'], 'gpt-4o,o3'],
    [[' a ', 'b', 'a'], 'a,b'],
    [[], ''],
    ['a, b', 'a,b'],
  ])('joins %j as %j', (input, out) => {
    expect(joinModels(input)).toBe(out);
  });
});

describe('parseJsonObjectField', () => {
  it.each([
    [null, { ok: true, value: null }],
    [undefined, { ok: true, value: null }],
    ['', { ok: true, value: null }],
    ['  \n ', { ok: true, value: null }],
    ['{}', { ok: true, value: {} }],
    ['{"a":"b"}', { ok: true, value: { a: 'b' } }],
    [' {"n": 1, "o": {"x": [1]}} ', { ok: true, value: { n: 1, o: { x: [1] } } }],
    ['[]', { ok: false }],
    ['[{"a":1}]', { ok: false }],
    ['1', { ok: false }],
    ['"text"', { ok: false }],
    ['null', { ok: false }],
    ['true', { ok: false }],
    ['{a:1}', { ok: false }],
    ['{"a":1', { ok: false }],
  ])('%j → %j', (input, out) => {
    expect(parseJsonObjectField(input)).toEqual(out);
  });
});

describe('resolveModelMapping', () => {
  it.each<[Record<string, string>, string, ReturnType<typeof resolveModelMapping>]>([
    [{}, 'gpt-4o', { model: 'gpt-4o', mapped: false }],
    [{ a: 'b' }, 'a', { model: 'b', mapped: true }],
    [{ a: 'b' }, 'b', { model: 'b', mapped: false }],
    [{ a: 'b', b: 'c' }, 'a', { model: 'c', mapped: true }],
    [{ a: 'b', b: 'c', c: 'd' }, 'a', { model: 'd', mapped: true }],
    [{ a: 'b', b: 'c' }, 'b', { model: 'c', mapped: true }],
    // Self-mapping means "no mapping", not a cycle.
    [{ a: 'a' }, 'a', { model: 'a', mapped: false }],
    // A chain may end on a self-mapping.
    [{ a: 'b', b: 'b' }, 'a', { model: 'b', mapped: true }],
    // An empty target ends the chain.
    [{ a: '' }, 'a', { model: 'a', mapped: false }],
    [{ a: 'b', b: 'a' }, 'a', { error: 'model_mapping_cycle' }],
    [{ a: 'b', b: 'a' }, 'b', { error: 'model_mapping_cycle' }],
    [{ a: 'b', b: 'c', c: 'a' }, 'a', { error: 'model_mapping_cycle' }],
    // A cycle further down the chain, not through the start.
    [{ x: 'a', a: 'b', b: 'a' }, 'x', { error: 'model_mapping_cycle' }],
    // Inherited object properties are not mappings.
    [{}, 'toString', { model: 'toString', mapped: false }],
  ])('%j applied to %j → %j', (mapping, model, out) => {
    expect(resolveModelMapping(mapping, model)).toEqual(out);
  });
});

/** A create input that passes every rule; each case changes one field. */
const VALID: ChannelFormInput = {
  name: 'main openai',
  type: 1,
  key: 'sk-abc',
  models: 'gpt-4o,gpt-4o-mini',
  group: 'default',
  base_url: '',
  model_mapping: '',
  status_code_mapping: '',
  param_override: '',
  setting: '',
  header_override: '',
  priority: 0,
  weight: 0,
  other: '',
};

function check(patch: Partial<ChannelFormInput>, mode: 'create' | 'edit' = 'create') {
  return validateChannelInput({ ...VALID, ...patch }, mode);
}

describe('validateChannelInput', () => {
  it('accepts the baseline input in both modes', () => {
    expect(check({})).toBeNull();
    expect(check({}, 'edit')).toBeNull();
  });

  it('accepts a minimal input with optional fields absent', () => {
    expect(
      validateChannelInput({ name: 'n', type: 43, key: 'sk-1', models: ['deepseek-chat'], group: 'default' }, 'create'),
    ).toBeNull();
  });

  describe('name and key', () => {
    it.each<[Partial<ChannelFormInput>, 'create' | 'edit', string | null]>([
      [{ name: '' }, 'create', 'channel_name_key_required'],
      [{ name: '   ' }, 'create', 'channel_name_key_required'],
      [{ name: null }, 'create', 'channel_name_key_required'],
      [{ key: '' }, 'create', 'channel_name_key_required'],
      [{ key: '  ' }, 'create', 'channel_name_key_required'],
      [{ key: undefined }, 'create', 'channel_name_key_required'],
      [{ name: '' }, 'edit', 'channel_name_key_required'],
      // On edit an empty key keeps the stored one.
      [{ key: '' }, 'edit', null],
      [{ key: undefined }, 'edit', null],
      [{ key: 'sk-new' }, 'edit', null],
    ])('%j (%s) → %j', (patch, mode, code) => {
      expect(check(patch, mode)?.code ?? null).toBe(code);
    });
  });

  describe('type', () => {
    it.each<[ChannelFormInput['type'], string | null]>([
      [1, null],
      ['14', null],
      [60, null],
      [0, 'channel_type_invalid'],
      [28, 'channel_type_invalid'],
      [61, 'channel_type_invalid'],
      [-1, 'channel_type_invalid'],
      ['openai', 'channel_type_invalid'],
      [null, 'channel_type_invalid'],
      [undefined, 'channel_type_invalid'],
    ])('type %j → %j', (type, code) => {
      // Types 3 and 8 need a base URL; give one so only the type rule is under test.
      expect(check({ type, base_url: 'https://x.example' })?.code ?? null).toBe(code);
    });
  });

  describe('models', () => {
    it.each<[ChannelFormInput['models'], string | null]>([
      ['gpt-4o', null],
      [['gpt-4o'], null],
      [' , gpt-4o', null],
      ['', 'channel_models_required'],
      [' , ', 'channel_models_required'],
      [[], 'channel_models_required'],
      [[' '], 'channel_models_required'],
      [null, 'channel_models_required'],
    ])('models %j → %j', (models, code) => {
      expect(check({ models })?.code ?? null).toBe(code);
    });
  });

  describe('groups', () => {
    it.each<[Partial<ChannelFormInput>, string | null]>([
      [{ group: 'default' }, null],
      [{ group: 'default,vip' }, null],
      [{ group: undefined, groups: ['vip'] }, null],
      // The list wins over the comma string when both are sent.
      [{ group: '', groups: ['vip'] }, null],
      [{ group: 'default', groups: [] }, 'channel_groups_required'],
      [{ group: '' }, 'channel_groups_required'],
      [{ group: ' , ' }, 'channel_groups_required'],
      [{ group: undefined }, 'channel_groups_required'],
      [{ group: null, groups: null }, 'channel_groups_required'],
    ])('%j → %j', (patch, code) => {
      expect(check(patch)?.code ?? null).toBe(code);
    });
  });

  describe('base URL', () => {
    it.each<[number, string | null | undefined, string | null]>([
      [1, '', null],
      [1, null, null],
      [1, 'https://api.openai.com', null],
      [1, 'http://10.0.0.2:8080/', null],
      [1, 'https://proxy.example/openai/v1', null],
      [1, 'HTTPS://API.EXAMPLE.COM', null],
      [1, 'api.openai.com', 'channel_base_url_invalid'],
      [1, 'ftp://files.example', 'channel_base_url_invalid'],
      [1, 'https://', 'channel_base_url_invalid'],
      [1, 'https://exa mple.com', 'channel_base_url_invalid'],
      // Preset names stand in for a URL.
      [14, 'glm-coding-plan', null],
      [1, 'kimi-coding-plan', null],
      [1, 'some-plan', 'channel_base_url_invalid'],
      // Custom: the base URL is the request URL, so it is required.
      [8, '', 'channel_base_url_invalid'],
      [8, '   ', 'channel_base_url_invalid'],
      [8, 'https://x.example/v1/chat/completions?model={model}', null],
      [8, 'glm-coding-plan', 'channel_base_url_invalid'],
      // Azure: per-resource host, required.
      [3, '', 'channel_base_url_invalid'],
      [3, undefined, 'channel_base_url_invalid'],
      [3, 'https://my-resource.openai.azure.com', null],
    ])('type %i base URL %j → %j', (type, base_url, code) => {
      expect(check({ type, base_url })?.code ?? null).toBe(code);
    });
  });

  describe('model mapping', () => {
    it.each<[ChannelFormInput['model_mapping'], string | null]>([
      ['', null],
      ['  ', null],
      [null, null],
      ['{}', null],
      ['{"gpt-4":"gpt-4o"}', null],
      ['{"a":"b","b":"c"}', null],
      ['{"a":"a"}', null],
      [{ 'gpt-4': 'gpt-4o' }, null],
      ['{"a":"b","b":"a"}', 'channel_model_mapping_invalid'],
      ['{"a":"b","b":"c","c":"a"}', 'channel_model_mapping_invalid'],
      ['{"a":1}', 'channel_model_mapping_invalid'],
      ['{"a":null}', 'channel_model_mapping_invalid'],
      ['{"a":["b"]}', 'channel_model_mapping_invalid'],
      ['["a"]', 'channel_model_mapping_invalid'],
      ['"a"', 'channel_model_mapping_invalid'],
      ['{"a":"b"', 'channel_model_mapping_invalid'],
    ])('%j → %j', (model_mapping, code) => {
      expect(check({ model_mapping })?.code ?? null).toBe(code);
    });
  });

  describe('JSON fields', () => {
    it.each<[Partial<ChannelFormInput>, string | null]>([
      [{ status_code_mapping: '{"429":"500"}' }, null],
      [{ status_code_mapping: '{"400":"200","503":"502"}' }, null],
      [{ status_code_mapping: '{"100":"599"}' }, null],
      [{ status_code_mapping: '{}' }, null],
      [{ status_code_mapping: '{"429":500}' }, 'status_code_mapping'],
      [{ status_code_mapping: '{"429":"abc"}' }, 'status_code_mapping'],
      [{ status_code_mapping: '{"099":"200"}' }, 'status_code_mapping'],
      [{ status_code_mapping: '{"600":"200"}' }, 'status_code_mapping'],
      [{ status_code_mapping: '{"429":"99"}' }, 'status_code_mapping'],
      [{ status_code_mapping: '{"4290":"400"}' }, 'status_code_mapping'],
      [{ status_code_mapping: '["429"]' }, 'status_code_mapping'],
      [{ status_code_mapping: 'nope' }, 'status_code_mapping'],
      [{ param_override: '{"temperature":0.2,"operations":[]}' }, null],
      [{ param_override: { temperature: 0.2 } }, null],
      [{ param_override: '[1,2]' }, 'param_override'],
      [{ param_override: '{bad' }, 'param_override'],
      [{ setting: '{"force_format":true,"proxy":"socks5://p:1080"}' }, null],
      [{ setting: '42' }, 'setting'],
      [{ header_override: '{"X-Api-Key":"{api_key}","User-Agent":"gw"}' }, null],
      [{ header_override: '{"X-Num":1}' }, 'header_override'],
      [{ header_override: '{"":"v"}' }, 'header_override'],
      [{ header_override: '"X: y"' }, 'header_override'],
    ])('%j → %j', (patch, field) => {
      const error = check(patch);
      if (field === null) expect(error).toBeNull();
      else expect(error).toEqual({ code: 'channel_json_invalid', params: { field } });
    });
  });

  describe('priority', () => {
    it.each<[ChannelFormInput['priority'], string | null]>([
      [0, null],
      [10, null],
      [CHANNEL_PRIORITY_MIN, null],
      ['-999', null],
      ['  5 ', null],
      ['', null],
      [null, null],
      [undefined, null],
      [-1000, 'channel_priority_invalid'],
      ['-1000', 'channel_priority_invalid'],
      [1.5, 'channel_priority_invalid'],
      ['1.5', 'channel_priority_invalid'],
      ['abc', 'channel_priority_invalid'],
      [Number.NaN, 'channel_priority_invalid'],
      [Number.POSITIVE_INFINITY, 'channel_priority_invalid'],
    ])('%j → %j', (priority, code) => {
      expect(check({ priority })?.code ?? null).toBe(code);
    });
  });

  describe('weight', () => {
    it.each<[ChannelFormInput['weight'], string | null]>([
      [0, null],
      [100, null],
      ['7', null],
      ['', null],
      [null, null],
      [-1, 'channel_weight_invalid'],
      ['-1', 'channel_weight_invalid'],
      [0.5, 'channel_weight_invalid'],
      ['ten', 'channel_weight_invalid'],
    ])('%j → %j', (weight, code) => {
      expect(check({ weight })?.code ?? null).toBe(code);
    });
  });

  it('reports the first broken rule in form order', () => {
    expect(check({ name: '', models: '', weight: -1 })?.code).toBe('channel_name_key_required');
    expect(check({ models: '', weight: -1 })?.code).toBe('channel_models_required');
    expect(check({ model_mapping: '[]', priority: -5000 })?.code).toBe('channel_model_mapping_invalid');
  });
});

describe('CHANNEL_FORM_MESSAGES', () => {
  it('uses the console’s own words', () => {
    expect(CHANNEL_FORM_MESSAGES.channel_name_key_required.zh).toBe('请填写渠道名称和渠道密钥！');
    expect(CHANNEL_FORM_MESSAGES.channel_models_required.zh).toBe('请至少选择一个模型！');
    expect(CHANNEL_FORM_MESSAGES.channel_model_mapping_invalid.zh).toBe('模型映射必须是合法的 JSON 格式！');
    expect(CHANNEL_FORM_MESSAGES.channel_name_key_required.en).toBe('Please fill in the channel name and key');
    expect(CHANNEL_FORM_MESSAGES.channel_models_required.en).toBe('Please choose at least one model');
    expect(CHANNEL_FORM_MESSAGES.channel_model_mapping_invalid.en).toBe('Model mapping must be valid JSON');
  });

  it('has zh and en text for every code', () => {
    for (const [code, text] of Object.entries(CHANNEL_FORM_MESSAGES)) {
      expect(text.zh, code).not.toBe('');
      expect(text.en, code).not.toBe('');
    }
  });

  it('fills the field name into the JSON message', () => {
    const error = { code: 'channel_json_invalid', params: { field: 'header_override' } } as const;
    expect(translate(error.code, 'en', error.params)).toBe('header_override must be a valid JSON object');
    expect(translate(error.code, 'zh', error.params)).toBe('header_override 必须是合法的 JSON 对象');
    expect(translate('channel_weight_invalid', 'en')).toBe('Weight must be a non-negative integer');
  });
});
