import type { ClaudeRequest } from '../../formats/anthropic/wire.js';
import { claudeThinking, type ModelSuffix } from '../../model-suffix.js';

/**
 * A Messages request to a `…-thinking` model name: extended thinking on with the suffix's budget, unless the client
 * set thinking itself (family). Claude takes only the default sampling while thinking, so those fields go.
 */
export function withSuffixThinking(request: ClaudeRequest, suffix: ModelSuffix | null | undefined): ClaudeRequest {
  if (suffix?.kind !== 'claude-thinking' || request.thinking) return request;
  const { maxTokens, budget } = claudeThinking(suffix, request.max_tokens);
  const { temperature: _t, top_p: _p, top_k: _k, ...rest } = request;
  return { ...rest, max_tokens: maxTokens, thinking: { type: 'enabled', budget_tokens: budget } };
}
