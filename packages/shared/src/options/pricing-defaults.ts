// Starting prices for well-known models. Ratio 1 = $2 per 1M prompt tokens (ratio = price / 2, spec 001 §4);
// completion ratio = output price / input price. Operators edit these in the ratio settings.

export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  'gpt-3.5-turbo': 0.25,
  'gpt-4': 15,
  'gpt-4-turbo': 5,
  'gpt-4o': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-4.1': 1,
  'gpt-4.1-mini': 0.2,
  'gpt-4.1-nano': 0.05,
  o1: 7.5,
  'o1-mini': 0.55,
  o3: 1,
  'o3-mini': 0.55,
  'o4-mini': 0.55,
  'text-embedding-3-small': 0.01,
  'text-embedding-3-large': 0.065,
  'text-embedding-ada-002': 0.05,
  'text-moderation-stable': 0.1,
  'text-moderation-latest': 0.1,
  'omni-moderation-latest': 0.1,
  'whisper-1': 15,
  'tts-1': 7.5,
  'tts-1-hd': 15,
  'claude-3-5-haiku-20241022': 0.4,
  'claude-3-5-sonnet-20241022': 1.5,
  'claude-3-7-sonnet-20250219': 1.5,
  'claude-sonnet-4-20250514': 1.5,
  'claude-opus-4-20250514': 7.5,
  'gemini-1.5-flash': 0.0375,
  'gemini-1.5-pro': 0.625,
  'gemini-2.0-flash': 0.05,
  'gemini-2.5-flash': 0.15,
  'gemini-2.5-pro': 0.625,
  'deepseek-chat': 0.135,
  'deepseek-reasoner': 0.275,
  'grok-3': 1.5,
  'grok-3-mini': 0.15,
};

export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {
  'gpt-3.5-turbo': 3,
  'gpt-4': 2,
  'gpt-4-turbo': 3,
  'gpt-4o': 4,
  'gpt-4o-mini': 4,
  'gpt-4.1': 4,
  'gpt-4.1-mini': 4,
  'gpt-4.1-nano': 4,
  o1: 4,
  'o1-mini': 4,
  o3: 4,
  'o3-mini': 4,
  'o4-mini': 4,
  'claude-3-5-haiku-20241022': 5,
  'claude-3-5-sonnet-20241022': 5,
  'claude-3-7-sonnet-20250219': 5,
  'claude-sonnet-4-20250514': 5,
  'claude-opus-4-20250514': 5,
  'gemini-1.5-flash': 4,
  'gemini-1.5-pro': 4,
  'gemini-2.0-flash': 4,
  'gemini-2.5-flash': 8.33,
  'gemini-2.5-pro': 8,
  'deepseek-chat': 4,
  'deepseek-reasoner': 4,
  'grok-3': 5,
  'grok-3-mini': 3.33,
};

/** Fixed per-call prices in dollars (take precedence over ratios). */
export const DEFAULT_MODEL_PRICE: Record<string, number> = {
  'dall-e-2': 0.02,
  'dall-e-3': 0.04,
  'gpt-image-1': 0.04,
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_zoom: 0.1,
  mj_custom_zoom: 0,
  mj_pan: 0.1,
  mj_inpaint: 0,
  mj_describe: 0.05,
  mj_upscale: 0.05,
  mj_upload: 0.05,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_modal: 0.1,
  suno_music: 0.1,
  suno_lyrics: 0.01,
};

/** Audio prompt tokens cost this many times the model's text prompt tokens (the family's defaults). */
export const DEFAULT_AUDIO_RATIO: Record<string, number> = {
  'gpt-4o-audio-preview': 16,
  'gpt-4o-mini-audio-preview': 66.67,
  'gpt-4o-realtime-preview': 8,
  'gpt-4o-mini-realtime-preview': 16.67,
  'gpt-4o-mini-tts': 25,
};

/**
 * Audio completion tokens cost this many times the model's audio prompt tokens (the family's defaults; a key also
 * prices the models whose names start with it).
 */
export const DEFAULT_AUDIO_COMPLETION_RATIO: Record<string, number> = {
  'gpt-4o-realtime': 2,
  'gpt-4o-mini-realtime': 2,
  'gpt-4o-mini-tts': 1,
  'tts-1': 0,
  'tts-1-hd': 0,
  'tts-1-1106': 0,
  'tts-1-hd-1106': 0,
};

export const DEFAULT_CACHE_RATIO: Record<string, number> = {
  'gpt-4o': 0.5,
  'gpt-4o-mini': 0.5,
  'gpt-4.1': 0.25,
  'gpt-4.1-mini': 0.25,
  'gpt-4.1-nano': 0.25,
  o1: 0.5,
  o3: 0.25,
  'o3-mini': 0.5,
  'o4-mini': 0.25,
  'claude-3-5-haiku-20241022': 0.1,
  'claude-3-5-sonnet-20241022': 0.1,
  'claude-3-7-sonnet-20250219': 0.1,
  'claude-sonnet-4-20250514': 0.1,
  'claude-opus-4-20250514': 0.1,
  'deepseek-chat': 0.25,
  'deepseek-reasoner': 0.25,
};

export const DEFAULT_GROUP_RATIO: Record<string, number> = { default: 1, vip: 1, svip: 1 };
export const DEFAULT_USER_USABLE_GROUPS: Record<string, string> = { default: '默认分组', vip: 'vip分组' };
