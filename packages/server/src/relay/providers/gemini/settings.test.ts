import { describe, expect, it } from 'vitest';
import { optionsWith } from '../../../../test/helpers/options.js';
import { toGeminiRequest } from '../../formats/gemini/request.js';
import type { GeminiRequest } from '../../formats/gemini/wire.js';
import type { ModelSuffix } from '../../model-suffix.js';
import type { ChatRequest } from '../../types.js';
import { geminiProvider } from './provider.js';
import { geminiApiVersion, geminiSafetySettings, geminiUpstreamSettings } from './settings.js';
import { withSuffixThinking } from './suffix-thinking.js';

const defaults = await optionsWith();
const tuned = await optionsWith({
  'gemini.version_settings': JSON.stringify({ default: 'v1', 'gemini-2.5-flash-image-preview': 'v1beta' }),
  'gemini.safety_settings': JSON.stringify({ default: 'BLOCK_NONE', HARM_CATEGORY_HATE_SPEECH: 'BLOCK_ONLY_HIGH' }),
});

describe('the API version', () => {
  it.each([
    ['the family default', defaults, 'gemini-2.5-flash', '', 'v1beta'],
    ['the option for the model', tuned, 'gemini-2.5-flash-image-preview', '', 'v1beta'],
    ["the option's default", tuned, 'gemini-2.5-flash', '', 'v1'],
    ["the channel's own version wins", tuned, 'gemini-2.5-flash', 'v1alpha', 'v1alpha'],
    ['an `other` that is no version is ignored', tuned, 'gemini-2.5-flash', 'us-central1', 'v1'],
    ['without options', undefined, 'gemini-2.5-flash', '', 'v1beta'],
  ])('%s', (_name, options, model, other, version) => {
    expect(geminiApiVersion(options, model, other)).toBe(version);
  });
});

describe('safety settings: every harm category, its own threshold or the default', () => {
  it('family default: all off', () => {
    expect(geminiSafetySettings(defaults).map((s) => s.threshold)).toEqual(['OFF', 'OFF', 'OFF', 'OFF', 'OFF']);
  });

  it('configured', () => {
    expect(geminiSafetySettings(tuned)).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_ONLY_HIGH' },
      { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_NONE' },
    ]);
    // Built once per option value.
    expect(geminiSafetySettings(tuned)).toBe(geminiSafetySettings(tuned));
  });
});

describe('the whole group, for other Gemini-wire providers (Vertex)', () => {
  it('version and safety settings together', () => {
    expect(geminiUpstreamSettings(tuned, 'gemini-2.5-flash')).toEqual({
      version: 'v1',
      safetySettings: geminiSafetySettings(tuned),
    });
  });
});

describe('the Gemini provider applies them', () => {
  const channel = {
    id: 1,
    type: 24,
    name: 'g',
    baseUrl: 'https://gemini.test',
    key: 'k',
    other: '',
    organization: null,
  };

  it('chat: the version in the URL and the safety settings in the body', () => {
    const call = geminiProvider.functions.chat!.call(
      channel,
      { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] },
      tuned,
    );
    expect(call.url).toBe('https://gemini.test/v1/models/gemini-2.5-flash:generateContent');
    expect(JSON.parse(String(call.body)).safetySettings[1]).toEqual({
      category: 'HARM_CATEGORY_HATE_SPEECH',
      threshold: 'BLOCK_ONLY_HIGH',
    });
  });

  it('native: the version, the body as sent', () => {
    const body: GeminiRequest = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const call = geminiProvider.functions.generateContent!.call(channel, body, 'gemini-2.5-flash-image-preview', {
      stream: true,
      headers: {},
      options: tuned,
    });
    expect(call.url).toBe(
      'https://gemini.test/v1beta/models/gemini-2.5-flash-image-preview:streamGenerateContent?alt=sse',
    );
    expect(JSON.parse(String(call.body))).toEqual(body);
  });
});

describe("the hub's thinking as Gemini's thinkingConfig", () => {
  const hub = (fields: Partial<ChatRequest>): ChatRequest => ({
    model: 'gemini-2.5-flash',
    messages: [{ role: 'user', content: 'hi' }],
    ...fields,
  });
  const config = (request: ChatRequest) =>
    (toGeminiRequest(request).generationConfig as { thinkingConfig?: unknown } | undefined)?.thinkingConfig;

  it.each<[string, Partial<ChatRequest>, unknown]>([
    [
      'a budget, clamped',
      { thinking: { type: 'enabled', budget_tokens: 60_000 } },
      { thinkingBudget: 24_576, includeThoughts: true },
    ],
    ['thoughts only', { thinking: { type: 'enabled' } }, { includeThoughts: true }],
    ['off', { thinking: { type: 'disabled' } }, { thinkingBudget: 0 }],
    [
      'thinking wins over an effort',
      { thinking: { type: 'enabled', budget_tokens: 3000 }, reasoning_effort: 'high' },
      { thinkingBudget: 3000, includeThoughts: true },
    ],
    ['an effort alone', { reasoning_effort: 'low' }, { thinkingBudget: 1024, includeThoughts: true }],
    ['neither', {}, undefined],
  ])('%s', (_name, fields, expected) => {
    expect(config(hub(fields))).toEqual(expected);
  });
});

describe('a native request to a suffixed name', () => {
  const thinking: ModelSuffix = { kind: 'gemini-thinking', upstreamModel: 'gemini-2.5-flash', percentage: 0.6 };
  const body: GeminiRequest = {
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    generationConfig: { maxOutputTokens: 2000 },
  };

  it.each<[string, ModelSuffix, GeminiRequest['generationConfig']]>([
    [
      '-thinking: 60% of maxOutputTokens',
      thinking,
      { maxOutputTokens: 2000, thinkingConfig: { thinkingBudget: 1200, includeThoughts: true } },
    ],
    [
      '-thinking-<budget>',
      { ...thinking, budget: 512 },
      { maxOutputTokens: 2000, thinkingConfig: { thinkingBudget: 512, includeThoughts: true } },
    ],
    [
      '-nothinking',
      { kind: 'gemini-nothinking', upstreamModel: 'gemini-2.5-flash' },
      { maxOutputTokens: 2000, thinkingConfig: { thinkingBudget: 0 } },
    ],
    [
      'an effort',
      { kind: 'effort', upstreamModel: 'gemini-2.5-flash', effort: 'medium' },
      { maxOutputTokens: 2000, thinkingConfig: { thinkingBudget: 8192, includeThoughts: true } },
    ],
  ])('%s', (_name, suffix, generationConfig) => {
    expect(withSuffixThinking(body, 'gemini-2.5-flash', suffix)).toEqual({ ...body, generationConfig });
  });

  it("the client's own thinkingConfig stays", () => {
    const own: GeminiRequest = { ...body, generationConfig: { thinkingConfig: { thinkingBudget: 99 } } };
    expect(withSuffixThinking(own, 'gemini-2.5-flash', thinking)).toBe(own);
  });
});
