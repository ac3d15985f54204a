import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../admission/authenticate.js';
import { RelayError } from '../errors.js';
import { claudePromptText } from '../formats/anthropic/prompt-text.js';
import type { ClaudeRequest } from '../formats/anthropic/wire.js';
import { countTextTokens } from '../usage.js';

/**
 * `POST /v1/messages/count_tokens` (Claude Code asks before long requests): the prompt's tokens, counted here with
 * the gateway's tokenizer whatever channel would serve the model, so it costs nothing and needs no upstream. The
 * figure is an estimate of Anthropic's own count (another tokenizer), close enough for context budgeting.
 */
export async function claudeCountTokens(ctx: AppContext, request: FastifyRequest) {
  const lang = languageOf(request);
  const caller = await authenticateRelay(ctx, request, lang);
  const body = request.body as Partial<ClaudeRequest> | null;
  const invalid = (reason: string) =>
    RelayError.of(400, lang, 'relay_body_invalid', { reason }, 'invalid_request_error');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('JSON object expected');
  if (typeof body.model !== 'string' || !body.model) throw invalid('model: Field required');
  if (!Array.isArray(body.messages)) throw invalid('messages: Field required');
  if (caller.modelLimits && !caller.modelLimits.has(body.model)) {
    throw RelayError.of(403, lang, 'relay_model_forbidden', { model: body.model }, 'model_not_allowed');
  }
  const text = claudePromptText({ ...body, max_tokens: 1 } as ClaudeRequest);
  return { input_tokens: await countTextTokens(text) };
}
