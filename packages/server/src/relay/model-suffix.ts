import type { OptionReader } from './provider.js';
import type { ChatRequest } from './types.js';

/**
 * Model-name suffixes of the family, interpreted on the way out: `claude-…-thinking` turns Claude's extended
 * thinking on, `gemini-…-thinking[-<budget>]` / `-nothinking` set Gemini's thinking budget, and `o3-mini-high`,
 * `gpt-5-low`… are OpenAI reasoning efforts. The suffix is removed from the name the upstream gets; prices, limits
 * and channel choice keep the name the client asked for (a channel lists `claude-3-7-sonnet-20250219-thinking`).
 * What a suffix means depends on the wire format the channel's upstream speaks, so it is read per channel.
 */

/** Every suffix any wire understands: a name without one costs this one test and nothing else. */
const ANY_SUFFIX = /-(?:thinking(?:-\d+)?|nothinking|minimal|low|medium|high|xhigh|max|none)$/;
const THINKING = '-thinking';
const NO_THINKING = '-nothinking';
const THINKING_BUDGET = /-thinking-(\d+)$/;
/** OpenAI's effort suffixes (the family's list): `-max` is not one. */
const OPENAI_EFFORT = /-(minimal|low|medium|high|xhigh|none)$/;
/** Gemini's: thinking off is `-nothinking`, so `-none` is not one. */
const GEMINI_EFFORT = /-(minimal|low|medium|high|xhigh|max)$/;
/** OpenAI's reasoning models: the o series and GPT-5 (family: only these take an effort suffix). */
const OPENAI_REASONING_MODEL = /^(?:o\d|gpt-5)/;

/** Claude rejects a thinking budget under 1024 tokens, and max_tokens must exceed the budget (family: 1280). */
export const CLAUDE_MIN_THINKING_MAX_TOKENS = 1280;
const CLAUDE_MIN_BUDGET = 1024;
/** The largest budget a `-thinking` suffix derives from max tokens (the console's documented cap). */
export const THINKING_BUDGET_CAP = 24_576;

/** The wire format whose suffixes a channel's upstream understands. */
export type SuffixDialect = 'claude' | 'gemini' | 'openai';

export type ModelSuffix =
  /** Claude extended thinking: `budget` when the name gave one, else a share of max tokens. */
  | {
      kind: 'claude-thinking';
      upstreamModel: string;
      budget?: number;
      percentage: number;
      defaultMaxTokens: number;
    }
  /** Gemini thinking on: `budget` when the name gave one, else a share of max tokens when the request has one. */
  | { kind: 'gemini-thinking'; upstreamModel: string; budget?: number; percentage: number }
  | { kind: 'gemini-nothinking'; upstreamModel: string }
  /** A reasoning effort (OpenAI's field; Gemini reads it as a thinking budget). */
  | { kind: 'effort'; upstreamModel: string; effort: string };

/** OpenAI-format upstreams: only OpenAI's reasoning models take a suffix (an effort). */
export function openAiSuffixDialect(model: string): SuffixDialect | undefined {
  return OPENAI_REASONING_MODEL.test(model) ? 'openai' : undefined;
}

/** Upstreams that serve several families (Bedrock, Vertex): the model's own family decides. */
export function familySuffixDialect(model: string): SuffixDialect | undefined {
  return model.startsWith('claude') ? 'claude' : model.startsWith('gemini') ? 'gemini' : undefined;
}

/**
 * The default max tokens of `claude.default_max_tokens` for a request that gives none: the first model name with
 * its own entry (a suffixed name first, as the family looks it up), else `default` (8192).
 */
export function claudeDefaultMaxTokens(options: OptionReader, model: string, baseModel = model): number {
  const table = options.json<Record<string, unknown>>('claude.default_max_tokens') ?? {};
  return positiveEntry(table, model) ?? positiveEntry(table, baseModel) ?? positiveEntry(table, 'default') ?? 8192;
}

function positiveEntry(table: Record<string, unknown>, key: string): number | undefined {
  const value = Object.hasOwn(table, key) ? table[key] : undefined;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/**
 * What the suffix of `model` (the name after the channel's model mapping) asks of a channel of `type`, or null
 * when it has none this channel understands (or the thinking adapter for its family is off: the upstream then
 * gets the name as it is, as in the family).
 */
/**
 * What a model name's suffix asks of an upstream that speaks `dialect` (its provider's `suffixDialect`; none: the
 * name goes as it is).
 */
export function modelSuffixOf(
  model: string,
  dialect: SuffixDialect | undefined,
  options: OptionReader,
): ModelSuffix | null {
  if (dialect === undefined || !ANY_SUFFIX.test(model)) return null;
  switch (dialect) {
    case 'claude':
      return claudeSuffix(model, options);
    case 'gemini':
      return geminiSuffix(model, options);
    case 'openai': {
      const effort = OPENAI_EFFORT.exec(model);
      return effort ? { kind: 'effort', upstreamModel: model.slice(0, effort.index), effort: effort[1]! } : null;
    }
    default:
      return null;
  }
}

function claudeSuffix(model: string, options: OptionReader): ModelSuffix | null {
  if (!options.bool('claude.thinking_adapter_enabled')) return null;
  const explicit = THINKING_BUDGET.exec(model);
  const upstreamModel = explicit
    ? model.slice(0, explicit.index)
    : model.endsWith(THINKING)
      ? model.slice(0, -THINKING.length)
      : null;
  if (upstreamModel === null) return null;
  return {
    kind: 'claude-thinking',
    upstreamModel,
    ...(explicit ? { budget: Number(explicit[1]) } : {}),
    percentage: options.number('claude.thinking_adapter_budget_tokens_percentage'),
    defaultMaxTokens: claudeDefaultMaxTokens(options, model, upstreamModel),
  };
}

function geminiSuffix(model: string, options: OptionReader): ModelSuffix | null {
  if (!options.bool('gemini.thinking_adapter_enabled')) return null;
  const percentage = options.number('gemini.thinking_adapter_budget_tokens_percentage');
  // Only a number after `-thinking-` is a budget: `gemini-2.0-flash-thinking-exp` is a model's own name.
  const explicit = THINKING_BUDGET.exec(model);
  if (explicit) {
    const upstreamModel = model.slice(0, explicit.index);
    return { kind: 'gemini-thinking', upstreamModel, budget: Number(explicit[1]), percentage };
  }
  if (model.endsWith(NO_THINKING)) {
    return { kind: 'gemini-nothinking', upstreamModel: model.slice(0, -NO_THINKING.length) };
  }
  if (model.endsWith(THINKING)) {
    return { kind: 'gemini-thinking', upstreamModel: model.slice(0, -THINKING.length), percentage };
  }
  const effort = GEMINI_EFFORT.exec(model);
  return effort ? { kind: 'effort', upstreamModel: model.slice(0, effort.index), effort: effort[1]! } : null;
}

/** Gemini 2.5 Pro (but its two early previews) thinks always: its budget is 128–32768 and cannot be 0. */
function isThinkingOnlyGemini(model: string): boolean {
  return (
    model.startsWith('gemini-2.5-pro') &&
    !model.startsWith('gemini-2.5-pro-preview-05-06') &&
    !model.startsWith('gemini-2.5-pro-preview-03-25')
  );
}

/** The early 2.5 Pro previews take no thinking budget (family: thoughts are asked for, nothing more). */
function takesNoGeminiBudget(model: string): boolean {
  return model.startsWith('gemini-2.5-pro-preview-05-06') || model.startsWith('gemini-2.5-pro-preview-03-25');
}

/** A thinking budget within what the Gemini model accepts (Google's documented ranges, as the family clamps). */
export function clampGeminiBudget(model: string, budget: number): number {
  const [min, max] = model.startsWith('gemini-2.5-flash-lite')
    ? [512, 24_576]
    : isThinkingOnlyGemini(model)
      ? [128, 32_768]
      : [0, 24_576];
  return Math.min(max, Math.max(min, Math.floor(budget)));
}

/** Gemini's effort suffixes above `high` have no larger budget in the hub's effort table. */
function hubEffort(effort: string): string {
  return effort === 'max' || effort === 'xhigh' ? 'high' : effort;
}

function maxTokensOf(request: ChatRequest): number | undefined {
  const value = request.max_tokens ?? request.max_completion_tokens;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/**
 * The hub request (OpenAI chat, what every client format becomes) with what the suffix asks: the upstream's model
 * name, and thinking in the hub's terms (`thinking`, as a Claude client's request carries it, or
 * `reasoning_effort`). The same object when there is no suffix.
 */
export function withModelSuffix(request: ChatRequest, suffix: ModelSuffix | null): ChatRequest {
  if (!suffix) return request;
  const out: ChatRequest = { ...request, model: suffix.upstreamModel };
  switch (suffix.kind) {
    case 'claude-thinking': {
      // A Claude client's own thinking settings win over the suffix (family).
      if (out.thinking) break;
      const thinking = claudeThinking(suffix, maxTokensOf(request));
      out.max_tokens = thinking.maxTokens;
      delete out.max_completion_tokens;
      out.thinking = { type: 'enabled', budget_tokens: thinking.budget };
      delete out.reasoning_effort;
      break;
    }
    case 'gemini-thinking': {
      const budget = geminiThinkingBudget(suffix, maxTokensOf(request));
      if (budget !== undefined) out.thinking = { type: 'enabled', budget_tokens: budget };
      // Without a budget, an effort the client gave becomes one downstream; otherwise thoughts alone are asked for.
      else if (!out.reasoning_effort) out.thinking = { type: 'enabled' };
      break;
    }
    case 'gemini-nothinking':
      if (!isThinkingOnlyGemini(suffix.upstreamModel)) out.thinking = { type: 'disabled' };
      delete out.reasoning_effort;
      break;
    case 'effort':
      out.reasoning_effort = hubEffort(suffix.effort);
      break;
  }
  return out;
}

/**
 * Claude's thinking for a `-thinking` suffix: max tokens are the request's (or the configured default), at least
 * 1280; the budget is the named one, or the configured share of max tokens up to 24576, always below max tokens.
 */
export function claudeThinking(
  suffix: Extract<ModelSuffix, { kind: 'claude-thinking' }>,
  requested: number | undefined,
): { maxTokens: number; budget: number } {
  const maxTokens = Math.max(requested ?? suffix.defaultMaxTokens, CLAUDE_MIN_THINKING_MAX_TOKENS);
  const wanted = suffix.budget ?? Math.min(Math.floor(maxTokens * suffix.percentage), THINKING_BUDGET_CAP);
  return { maxTokens, budget: Math.max(CLAUDE_MIN_BUDGET, Math.min(wanted, maxTokens - 1)) };
}

/** Gemini's budget for a `-thinking` suffix, or undefined when only thoughts are to be asked for. */
export function geminiThinkingBudget(
  suffix: Extract<ModelSuffix, { kind: 'gemini-thinking' }>,
  maxTokens: number | undefined,
): number | undefined {
  const model = suffix.upstreamModel;
  if (takesNoGeminiBudget(model)) return undefined;
  if (suffix.budget !== undefined) return clampGeminiBudget(model, suffix.budget);
  return maxTokens ? clampGeminiBudget(model, maxTokens * suffix.percentage) : undefined;
}

const GEMINI_THINKING_WILDCARDS = ['gemini-2.5-flash-lite', 'gemini-2.5-flash', 'gemini-2.5-pro'];

/**
 * The name a channel list or a price is looked up under when the exact name has none (family): Gemini 2.5 thinking
 * budgets share `gemini-2.5-flash-thinking-*` (and -flash-lite, -pro), custom GPTs share `gpt-4-gizmo-*` and
 * `gpt-4o-gizmo-*`. Returns the name itself when no rule applies.
 */
export function matchingModelName(model: string): string {
  if (model.includes('-thinking-')) {
    const family = GEMINI_THINKING_WILDCARDS.find((prefix) => model.startsWith(prefix));
    if (family) return `${family}-thinking-*`;
  }
  if (model.startsWith('gpt-4-gizmo')) return 'gpt-4-gizmo-*';
  if (model.startsWith('gpt-4o-gizmo')) return 'gpt-4o-gizmo-*';
  return model;
}
