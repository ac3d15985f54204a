import { geminiThinkingConfig } from '../../formats/gemini/request.js';
import type { GeminiRequest } from '../../formats/gemini/wire.js';
import { type ModelSuffix, withModelSuffix } from '../../model-suffix.js';

/**
 * A native generateContent request to a `…-thinking[-<budget>]`, `…-nothinking` or effort-suffixed name: the
 * thinkingConfig the suffix asks for, unless the client set one itself.
 */
export function withSuffixThinking(
  request: GeminiRequest,
  model: string,
  suffix: ModelSuffix | null | undefined,
): GeminiRequest {
  if (!suffix || suffix.kind === 'claude-thinking' || request.generationConfig?.thinkingConfig) return request;
  const hub = withModelSuffix({ model, messages: [], max_tokens: request.generationConfig?.maxOutputTokens }, suffix);
  const thinkingConfig = geminiThinkingConfig(hub, model);
  return thinkingConfig ? { ...request, generationConfig: { ...request.generationConfig, thinkingConfig } } : request;
}
