import { describe, expect, it } from 'vitest';
import { CHANNEL_TYPE_OPTIONS, CHANNEL_TYPES, channelType, modelsByChannelType } from './channel-types.js';

const GAPS = [28, 29, 30, 32];
const ALL_VALUES = Array.from({ length: 61 }, (_, i) => i).filter((v) => !GAPS.includes(v));

// Copied by hand from the reference (§2), not from the implementation.
const STREAM_OPTIONS_REFERENCE = [1, 14, 33, 24, 39, 3, 45, 4, 48, 43, 46, 26, 17, 53, 57, 25, 35, 40, 58, 59, 60, 23];

const MJ_ACTIONS = [
  'mj_imagine',
  'mj_variation',
  'mj_reroll',
  'mj_blend',
  'mj_upscale',
  'mj_describe',
  'mj_zoom',
  'mj_shorten',
  'mj_modal',
  'mj_inpaint',
  'mj_custom_zoom',
  'mj_high_variation',
  'mj_low_variation',
  'mj_pan',
  'mj_upload',
];

describe('CHANNEL_TYPES', () => {
  it('holds every type 0–60 except the unused gaps, exactly once, in order', () => {
    expect(CHANNEL_TYPES.map((t) => t.value)).toEqual(ALL_VALUES);
    for (const gap of GAPS) expect(channelType(gap)).toBeUndefined();
  });

  it.each([
    [1, 'https://api.openai.com'],
    [2, 'https://oa.api2d.net'],
    [4, 'http://localhost:11434'],
    [5, 'https://api.openai-sb.com'],
    [14, 'https://api.anthropic.com'],
    [15, 'https://aip.baidubce.com'],
    [17, 'https://dashscope.aliyuncs.com'],
    [20, 'https://openrouter.ai/api'],
    [22, 'https://fastgpt.run/api/openapi'],
    [23, 'https://hunyuan.tencentcloudapi.com'],
    [24, 'https://generativelanguage.googleapis.com'],
    [25, 'https://api.moonshot.cn'],
    [26, 'https://open.bigmodel.cn'],
    [39, 'https://api.cloudflare.com'],
    [40, 'https://api.siliconflow.cn'],
    [43, 'https://api.deepseek.com'],
    [45, 'https://ark.cn-beijing.volces.com'],
    [46, 'https://qianfan.baidubce.com'],
    [48, 'https://api.x.ai'],
    [49, 'https://api.coze.cn'],
    [55, 'https://api.openai.com'],
    [57, 'https://chatgpt.com'],
    // No default: Azure and Custom need the operator's URL; the others build or ask for it.
    [3, ''],
    [8, ''],
    [18, ''],
    [33, ''],
    [36, ''],
    [41, ''],
  ])('type %i defaults to base URL %j', (value, url) => {
    expect(channelType(value)?.defaultBaseUrl).toBe(url);
  });

  it('flags stream_options support for exactly the reference list', () => {
    const flagged = CHANNEL_TYPES.filter((t) => t.streamOptions).map((t) => t.value);
    expect(new Set(flagged)).toEqual(new Set(STREAM_OPTIONS_REFERENCE));
    expect(flagged).toHaveLength(STREAM_OPTIONS_REFERENCE.length);
    expect(channelType(2)?.streamOptions).toBe(false);
    expect(channelType(20)?.streamOptions).toBe(false);
  });

  it('gives the Midjourney types the action models, Plus adding swap_face', () => {
    expect(channelType(2)?.presetModels).toEqual(MJ_ACTIONS);
    expect(channelType(5)?.presetModels).toEqual([...MJ_ACTIONS, 'swap_face']);
  });

  it('gives Suno its two task models', () => {
    expect(channelType(36)?.presetModels).toEqual(['suno_music', 'suno_lyrics']);
  });

  it.each([
    [1, ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'o3-mini', 'text-embedding-3-small', 'dall-e-3', 'whisper-1', 'tts-1']],
    [14, ['claude-3-5-haiku-20241022', 'claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514']],
    [24, ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash', 'text-embedding-004']],
    [43, ['deepseek-chat', 'deepseek-reasoner']],
    [48, ['grok-3', 'grok-3-mini', 'grok-4']],
  ])('type %i presets include the well-known models', (value, models) => {
    expect(channelType(value)?.presetModels).toEqual(expect.arrayContaining(models));
  });

  it('has no duplicate model inside a preset list', () => {
    for (const t of CHANNEL_TYPES) expect(new Set(t.presetModels).size, `type ${t.value}`).toBe(t.presetModels.length);
  });

  it.each([
    [3, 'api-version', '2025-04-01-preview'],
    [17, 'plugin', undefined],
    [18, 'version', 'v2.1'],
    [39, 'account id', undefined],
    [41, 'region', undefined],
    [49, 'bot_id', undefined],
    [1, undefined, undefined],
  ])('type %i: other means %j, default %j', (value, label, def) => {
    expect(channelType(value)?.otherLabel).toBe(label);
    expect(channelType(value)?.otherDefault).toBe(def);
  });

  it.each([
    [15, 'APIKey|SecretKey'],
    [18, 'APPID|APISecret|APIKey'],
    [23, 'AppId|SecretId|SecretKey'],
    [33, 'AK|SK|Region'],
    [50, 'AccessKey|SecretKey'],
    [51, 'AK|SK'],
  ])('type %i key format is %s', (value, hint) => {
    expect(channelType(value)?.keyHint).toBe(hint);
  });

  it('marks balance support for exactly the providers the refresh job reads', () => {
    const withBalance = Object.fromEntries(
      CHANNEL_TYPES.filter((t) => t.balance).map((t) => [t.value, t.balance] as const),
    );
    expect(withBalance).toEqual({
      1: 'openai',
      8: 'openai',
      10: 'aiproxy',
      12: 'api2gpt',
      13: 'aigc2d',
      20: 'openrouter',
      25: 'moonshot',
      40: 'siliconflow',
      43: 'deepseek',
    });
  });

  it.each([
    [1, 'openai'],
    [3, 'azure'],
    [2, 'midjourney'],
    [8, 'custom-url'],
    [14, 'claude'],
    [21, 'unsupported'],
    [24, 'gemini'],
    [36, 'suno'],
    [41, 'vertex'],
    [43, 'openai'],
    [50, 'task-video'],
    [57, 'codex'],
  ])('type %i is served by the %s adaptor', (value, adaptor) => {
    expect(channelType(value)?.adaptor).toBe(adaptor);
  });

  it('labels the common providers readably', () => {
    expect(channelType(1)?.label).toBe('OpenAI');
    expect(channelType(3)?.label).toBe('Azure OpenAI');
    expect(channelType(14)?.label).toBe('Anthropic Claude');
  });

  it('is frozen, so one caller cannot change another caller’s lists', () => {
    const openai = channelType(1)!;
    expect(() => openai.presetModels.push('x')).toThrow();
    expect(openai.presetModels).not.toContain('x');
  });
});

describe('channelType', () => {
  it.each([
    [1, 1],
    ['43', 43],
    [0, 0],
    [28, undefined],
    [61, undefined],
    [-1, undefined],
    [1.5, undefined],
    ['abc', undefined],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
  ])('%j → %j', (input, value) => {
    expect(channelType(input)?.value).toBe(value);
  });
});

describe('CHANNEL_TYPE_OPTIONS', () => {
  it('starts with the common providers', () => {
    expect(CHANNEL_TYPE_OPTIONS.slice(0, 7).map((t) => t.value)).toEqual([1, 3, 14, 24, 43, 4, 48]);
  });

  it('lists every type but Unknown exactly once', () => {
    const values = CHANNEL_TYPE_OPTIONS.map((t) => t.value);
    expect(values).not.toContain(0);
    expect([...values].sort((a, b) => a - b)).toEqual(ALL_VALUES.filter((v) => v !== 0));
  });

  it('orders the rest by number', () => {
    const values = CHANNEL_TYPE_OPTIONS.map((t) => t.value);
    const tail = values.slice(values.indexOf(2));
    expect(tail).toEqual([...tail].sort((a, b) => a - b));
  });
});

describe('modelsByChannelType', () => {
  it('maps every selectable type to its preset list', () => {
    const map = modelsByChannelType();
    expect(Object.keys(map).map(Number)).toEqual(ALL_VALUES.filter((v) => v !== 0));
    expect(map[36]).toEqual(['suno_music', 'suno_lyrics']);
    expect(map[43]).toEqual(['deepseek-chat', 'deepseek-reasoner']);
  });

  it('returns fresh arrays each call', () => {
    const first = modelsByChannelType();
    first[43].push('changed');
    expect(modelsByChannelType()[43]).toEqual(['deepseek-chat', 'deepseek-reasoner']);
  });
});
