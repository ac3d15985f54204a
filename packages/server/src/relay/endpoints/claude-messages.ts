import type { Language } from '@gateway/shared';
import type { Endpoint } from '../endpoint.js';
import { RelayError } from '../errors.js';
import { claudeToOpenAiRequest } from '../formats/anthropic/from-claude.js';
import { claudePromptText } from '../formats/anthropic/prompt-text.js';
import { claudeUsage } from '../formats/anthropic/response.js';
import { openAiChunksToClaude } from '../formats/anthropic/stream-from-openai.js';
import { claudePassThrough } from '../formats/anthropic/stream-passthrough.js';
import { openAiToClaudeResponse } from '../formats/anthropic/to-claude.js';
import type { ClaudeRequest } from '../formats/anthropic/wire.js';
import { countTextTokens } from '../usage.js';
import { type NativeFormat, planNativeFormat } from './native-format.js';

function validate(body: unknown, lang: Language): ClaudeRequest {
  const invalid = (reason: string) =>
    RelayError.of(400, lang, 'relay_body_invalid', { reason }, 'invalid_request_error');
  const request = body as ClaudeRequest | null;
  if (typeof request !== 'object' || request === null || Array.isArray(request)) throw invalid('JSON object expected');
  if (typeof request.model !== 'string' || !request.model) throw invalid('model: Field required');
  if (!Array.isArray(request.messages) || request.messages.length === 0) throw invalid('messages: Field required');
  if (typeof request.max_tokens !== 'number' || request.max_tokens < 1) throw invalid('max_tokens: Field required');
  return request;
}

const MESSAGES: NativeFormat<ClaudeRequest> = {
  native: (provider) => provider.functions.messages,
  nativeStream: claudePassThrough,
  nativeUsage: (answer) => claudeUsage(answer.usage as Parameters<typeof claudeUsage>[0]),
  isNativeAnswer: (answer) => Array.isArray(answer.content),
  toChat: (request, upstreamModel, _stream, options) =>
    claudeToOpenAiRequest(request, upstreamModel, {
      stripBillingHeader: options.bool('claude.strip_billing_header_enabled'),
    }),
  fromChatStream: openAiChunksToClaude,
  fromChatAnswer: openAiToClaudeResponse,
};

/**
 * `POST /v1/messages` (Anthropic Messages, what Claude Code and the Anthropic SDKs call). A Claude channel gets the
 * request as it is and the answer goes back untouched; any other channel is reached through the OpenAI format
 * and its answer converted back to Claude's, streaming included.
 */
export const claudeMessagesEndpoint: Endpoint<ClaudeRequest> = {
  parse(request, lang) {
    const body = validate(request.body, lang);
    const text = claudePromptText(body);
    return {
      model: body.model,
      stream: body.stream === true,
      body,
      reserve: { promptEstimate: Math.ceil(text.length / 4), maxOutput: body.max_tokens, promptText: () => text },
      countPrompt: () => countTextTokens(text),
      rawBody: body,
      headers: request.headers,
    };
  },
  plan: (provider, channel, request, upstreamModel, options, suffix) =>
    planNativeFormat(MESSAGES, provider, channel, request, upstreamModel, options, suffix),
};
