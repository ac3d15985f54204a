import { describe, expect, it } from 'vitest';
import { optionsWith } from '../../test/helpers/options.js';
import {
  clampGeminiBudget,
  claudeThinking,
  type ModelSuffix,
  matchingModelName,
  modelSuffixOf,
  withModelSuffix,
} from './model-suffix.js';
import type { OptionReader } from './provider.js';
import { suffixDialectOf } from './providers/registry.js';
import type { ChatRequest } from './types.js';

/** What a suffix asks of a channel type's upstream, read through the dialect its provider declares. */
const suffixOf = (model: string, type: number, options: OptionReader) =>
  modelSuffixOf(model, suffixDialectOf(type, model), options);

// Channel types: 1 OpenAI, 3 Azure, 14 Anthropic, 24 Gemini, 33 AWS Bedrock, 41 Vertex AI, 17 Ali (no suffixes).
const OPENAI = 1;
const AZURE = 3;
const CLAUDE = 14;
const GEMINI = 24;
const BEDROCK = 33;
const VERTEX = 41;
const ALI = 17;

const defaults = await optionsWith();
const geminiOn = await optionsWith({ 'gemini.thinking_adapter_enabled': 'true' });
const claudeOff = await optionsWith({ 'claude.thinking_adapter_enabled': 'false' });
const tuned = await optionsWith({
  'claude.default_max_tokens': JSON.stringify({ default: 4000, 'claude-opus-4-20250514': 32000 }),
  'claude.thinking_adapter_budget_tokens_percentage': '0.5',
});

describe('which suffixes a channel understands', () => {
  it.each([
    [CLAUDE, 'claude-3-7-sonnet-20250219', 'claude'],
    [GEMINI, 'gemini-2.5-flash', 'gemini'],
    [BEDROCK, 'claude-sonnet-4-20250514', 'claude'],
    [VERTEX, 'claude-sonnet-4-20250514', 'claude'],
    [VERTEX, 'gemini-2.5-pro', 'gemini'],
    [VERTEX, 'text-embedding-005', undefined],
    [OPENAI, 'o3-mini', 'openai'],
    [OPENAI, 'gpt-5', 'openai'],
    [AZURE, 'o4-mini', 'openai'],
    // Not a reasoning model: an OpenAI-format upstream gets `-high` as part of the name.
    [OPENAI, 'gpt-4o', undefined],
    [OPENAI, 'claude-3-7-sonnet-20250219', undefined],
    [ALI, 'qwen-max', undefined],
  ])('type %i, %s → %s', (type, model, dialect) => {
    expect(suffixDialectOf(type, model)).toBe(dialect);
  });
});

describe('model name → what its suffix asks', () => {
  it.each<[string, number, string, ModelSuffix | null]>([
    ['no suffix', CLAUDE, 'claude-3-7-sonnet-20250219', null],
    [
      'Claude -thinking: 80% of the default 8192',
      CLAUDE,
      'claude-3-7-sonnet-20250219-thinking',
      {
        kind: 'claude-thinking',
        upstreamModel: 'claude-3-7-sonnet-20250219',
        percentage: 0.8,
        defaultMaxTokens: 8192,
      },
    ],
    [
      'Claude -thinking-<budget>',
      BEDROCK,
      'claude-sonnet-4-20250514-thinking-10000',
      {
        kind: 'claude-thinking',
        upstreamModel: 'claude-sonnet-4-20250514',
        budget: 10000,
        percentage: 0.8,
        defaultMaxTokens: 8192,
      },
    ],
    // Claude has no effort suffixes here: the name goes as it is.
    ['Claude -high', CLAUDE, 'claude-3-7-sonnet-20250219-high', null],
    // The Gemini thinking adapter is off by default (family): the name goes as it is.
    ['Gemini adapter off', GEMINI, 'gemini-2.5-flash-thinking', null],
    ['OpenAI effort', OPENAI, 'o3-mini-high', { kind: 'effort', upstreamModel: 'o3-mini', effort: 'high' }],
    ['OpenAI effort none', OPENAI, 'gpt-5.1-none', { kind: 'effort', upstreamModel: 'gpt-5.1', effort: 'none' }],
    ['OpenAI has no -max', OPENAI, 'o3-max', null],
    ['not a reasoning model', OPENAI, 'gpt-4o-mini-high', null],
    ['-thinking on OpenAI', OPENAI, 'o3-thinking', null],
    ['a type without suffixes', ALI, 'qwen3-thinking', null],
  ])('%s', async (_name, type, model, expected) => {
    expect(suffixOf(model, type, defaults)).toEqual(expected);
  });

  it.each<[string, string, ModelSuffix | null]>([
    [
      '-thinking-<budget>',
      'gemini-2.5-flash-thinking-8192',
      { kind: 'gemini-thinking', upstreamModel: 'gemini-2.5-flash', budget: 8192, percentage: 0.6 },
    ],
    [
      '-thinking',
      'gemini-2.5-pro-thinking',
      { kind: 'gemini-thinking', upstreamModel: 'gemini-2.5-pro', percentage: 0.6 },
    ],
    ['-nothinking', 'gemini-2.5-flash-nothinking', { kind: 'gemini-nothinking', upstreamModel: 'gemini-2.5-flash' }],
    ['effort', 'gemini-3-pro-preview-low', { kind: 'effort', upstreamModel: 'gemini-3-pro-preview', effort: 'low' }],
    ['effort max', 'gemini-2.5-flash-max', { kind: 'effort', upstreamModel: 'gemini-2.5-flash', effort: 'max' }],
    // A model's own name with "-thinking-" in it is not a budget.
    ['a name, not a budget', 'gemini-2.0-flash-thinking-exp', null],
    ['no suffix', 'gemini-2.0-flash', null],
  ])('Gemini with the adapter on: %s', (_name, model, expected) => {
    expect(suffixOf(model, GEMINI, geminiOn)).toEqual(expected);
  });

  it('the Claude adapter switched off leaves the name as it is', () => {
    expect(suffixOf('claude-3-7-sonnet-20250219-thinking', CLAUDE, claudeOff)).toBeNull();
  });

  it('reads the configured percentage and the default max tokens of the suffixed name, then the model, then default', () => {
    expect(suffixOf('claude-opus-4-20250514-thinking', CLAUDE, tuned)).toMatchObject({
      percentage: 0.5,
      defaultMaxTokens: 32000,
    });
    expect(suffixOf('claude-3-5-haiku-20241022-thinking', CLAUDE, tuned)).toMatchObject({
      defaultMaxTokens: 4000,
    });
  });
});

const ask = (fields: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'client-name',
  messages: [{ role: 'user', content: 'hi' }],
  ...fields,
});

const claudeSuffix = (fields: Partial<Extract<ModelSuffix, { kind: 'claude-thinking' }>> = {}): ModelSuffix => ({
  kind: 'claude-thinking',
  upstreamModel: 'claude-3-7-sonnet-20250219',
  percentage: 0.8,
  defaultMaxTokens: 8192,
  ...fields,
});

describe('Claude thinking from a suffix', () => {
  it.each<[string, Partial<Extract<ModelSuffix, { kind: 'claude-thinking' }>>, number | undefined, object]>([
    ['80% of the default max tokens', {}, undefined, { maxTokens: 8192, budget: 6553 }],
    ['80% of the client max tokens', {}, 10_000, { maxTokens: 10_000, budget: 8000 }],
    ['capped at 24576', {}, 64_000, { maxTokens: 64_000, budget: 24_576 }],
    ['max tokens raised to 1280, budget at least 1024', {}, 500, { maxTokens: 1280, budget: 1024 }],
    ['a named budget', { budget: 10_000 }, 16_000, { maxTokens: 16_000, budget: 10_000 }],
    ['a named budget stays under max tokens', { budget: 10_000 }, 4096, { maxTokens: 4096, budget: 4095 }],
    ['a named budget under Claude’s minimum', { budget: 10 }, 4096, { maxTokens: 4096, budget: 1024 }],
  ])('%s', (_name, fields, requested, expected) => {
    expect(claudeThinking(claudeSuffix(fields) as never, requested)).toEqual(expected);
  });
});

describe('the hub request with what the suffix asks', () => {
  it('is the same object without a suffix', () => {
    const request = ask();
    expect(withModelSuffix(request, null)).toBe(request);
  });

  it('Claude: the upstream name, max tokens and a thinking budget; an effort gives way', () => {
    expect(
      withModelSuffix(ask({ max_completion_tokens: 2000, reasoning_effort: 'low', temperature: 0.2 }), claudeSuffix()),
    ).toEqual({
      model: 'claude-3-7-sonnet-20250219',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1600 },
      temperature: 0.2,
    });
  });

  it("Claude: a Claude client's own thinking wins; only the name changes", () => {
    const thinking = { type: 'enabled', budget_tokens: 3000 };
    expect(withModelSuffix(ask({ max_tokens: 9000, thinking }), claudeSuffix())).toEqual({
      ...ask({ max_tokens: 9000, thinking }),
      model: 'claude-3-7-sonnet-20250219',
    });
  });

  it.each<[string, ModelSuffix, Partial<ChatRequest>, Partial<ChatRequest>]>([
    [
      'a named budget, clamped to the model',
      { kind: 'gemini-thinking', upstreamModel: 'gemini-2.5-flash', budget: 100_000, percentage: 0.6 },
      {},
      { thinking: { type: 'enabled', budget_tokens: 24_576 } },
    ],
    [
      '60% of max tokens',
      { kind: 'gemini-thinking', upstreamModel: 'gemini-2.5-flash', percentage: 0.6 },
      { max_tokens: 1000 },
      { max_tokens: 1000, thinking: { type: 'enabled', budget_tokens: 600 } },
    ],
    [
      'no max tokens: thoughts only',
      { kind: 'gemini-thinking', upstreamModel: 'gemini-2.5-flash', percentage: 0.6 },
      {},
      { thinking: { type: 'enabled' } },
    ],
    [
      'no max tokens, an effort: the effort sets the budget',
      { kind: 'gemini-thinking', upstreamModel: 'gemini-2.5-flash', percentage: 0.6 },
      { reasoning_effort: 'medium' },
      { reasoning_effort: 'medium' },
    ],
    [
      'an early 2.5 Pro preview takes no budget',
      { kind: 'gemini-thinking', upstreamModel: 'gemini-2.5-pro-preview-05-06', budget: 2048, percentage: 0.6 },
      {},
      { thinking: { type: 'enabled' } },
    ],
    [
      'thinking off',
      { kind: 'gemini-nothinking', upstreamModel: 'gemini-2.5-flash' },
      { reasoning_effort: 'high' },
      { thinking: { type: 'disabled' } },
    ],
    [
      '2.5 Pro cannot stop thinking: only the name changes',
      { kind: 'gemini-nothinking', upstreamModel: 'gemini-2.5-pro' },
      {},
      {},
    ],
    ['an effort', { kind: 'effort', upstreamModel: 'o3-mini', effort: 'high' }, {}, { reasoning_effort: 'high' }],
    [
      'max is the highest hub effort',
      { kind: 'effort', upstreamModel: 'gemini-2.5-flash', effort: 'max' },
      {},
      {
        reasoning_effort: 'high',
      },
    ],
  ])('%s', (_name, suffix, fields, expected) => {
    expect(withModelSuffix(ask(fields), suffix)).toEqual({ ...ask(), model: suffix.upstreamModel, ...expected });
  });
});

describe('Gemini budgets within what each model accepts', () => {
  it.each([
    ['gemini-2.5-flash', 30_000, 24_576],
    ['gemini-2.5-flash', -5, 0],
    ['gemini-2.5-flash-lite', 100, 512],
    ['gemini-2.5-flash-lite-preview-06-17', 30_000, 24_576],
    ['gemini-2.5-pro', 50, 128],
    ['gemini-2.5-pro', 40_000, 32_768],
    ['gemini-2.5-pro-preview-05-06', 40_000, 24_576],
    ['gemini-2.5-flash', 600.9, 600],
  ])('%s, %d → %d', (model, budget, clamped) => {
    expect(clampGeminiBudget(model, budget)).toBe(clamped);
  });
});

describe('the name channels and prices are matched under when the exact one has none (family)', () => {
  it.each([
    ['gemini-2.5-flash-thinking-8192', 'gemini-2.5-flash-thinking-*'],
    ['gemini-2.5-flash-lite-thinking-512', 'gemini-2.5-flash-lite-thinking-*'],
    ['gemini-2.5-pro-thinking-128', 'gemini-2.5-pro-thinking-*'],
    ['gemini-2.5-flash-thinking', 'gemini-2.5-flash-thinking'],
    ['gemini-2.0-flash-thinking-exp', 'gemini-2.0-flash-thinking-exp'],
    ['gpt-4-gizmo-g-abc', 'gpt-4-gizmo-*'],
    ['gpt-4o-gizmo-g-abc', 'gpt-4o-gizmo-*'],
    ['claude-3-7-sonnet-20250219-thinking', 'claude-3-7-sonnet-20250219-thinking'],
  ])('%s → %s', (model, matching) => {
    expect(matchingModelName(model)).toBe(matching);
  });
});
