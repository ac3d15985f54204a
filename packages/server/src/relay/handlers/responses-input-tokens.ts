import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../admission/authenticate.js';
import { responsesPromptText } from '../endpoints/responses.js';
import { RelayError } from '../errors.js';
import type { ResponsesRequest } from '../formats/responses/responses-wire.js';
import { countTextTokens } from '../usage.js';

/**
 * `POST /v1/responses/input_tokens` (OpenAI's token count for a Responses body): counted here with the gateway's
 * tokenizer whatever channel would serve the model, free and without an upstream, as `/v1/messages/count_tokens`
 * is. `model` may be left out, as OpenAI allows; when given, the key must be allowed to use it.
 */
export async function responsesInputTokens(ctx: AppContext, request: FastifyRequest) {
  const lang = languageOf(request);
  const caller = await authenticateRelay(ctx, request, lang);
  const body = request.body as Partial<ResponsesRequest> | null;
  const invalid = (reason: string) =>
    RelayError.of(400, lang, 'relay_body_invalid', { reason }, 'invalid_request_error');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('JSON object expected');
  if (body.input !== undefined && typeof body.input !== 'string' && !Array.isArray(body.input)) {
    throw invalid('input must be a string or a list of items');
  }
  if (typeof body.model === 'string' && caller.modelLimits && !caller.modelLimits.has(body.model)) {
    throw RelayError.of(403, lang, 'relay_model_forbidden', { model: body.model }, 'model_not_allowed');
  }
  const text = responsesPromptText({ ...body, model: body.model ?? '' } as ResponsesRequest);
  return { object: 'response.input_tokens', input_tokens: await countTextTokens(text) };
}
