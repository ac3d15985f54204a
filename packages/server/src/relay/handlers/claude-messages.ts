import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../auth.js';
import { RelayError } from '../errors.js';
import { runRelay } from '../pipeline.js';
import { claudeAdapter } from '../providers/claude/adapter.js';
import { type ClaudeRequest, claudeToOpenAiRequest, openAiToClaudeResponse } from '../providers/claude/from-claude.js';
import { ANTHROPIC_VERSION } from '../providers/claude/request.js';
import { claudeUsage } from '../providers/claude/response.js';
import { reserveQuota } from '../reserve.js';
import { claudePassThrough } from '../stream/claude-passthrough.js';
import { openAiChunksToClaude } from '../stream/openai-to-claude.js';
import { nativeFormatPlan } from './native-format-plan.js';

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

function promptText(request: ClaudeRequest): string {
  const system =
    typeof request.system === 'string' ? request.system : (request.system ?? []).map((b) => b.text ?? '').join('\n');
  const messages = request.messages.map((message) =>
    typeof message.content === 'string' ? message.content : message.content.map((block) => block.text ?? '').join('\n'),
  );
  return [system, ...messages].join('\n');
}

/**
 * `POST /v1/messages` (Anthropic Messages, what Claude Code and the Anthropic SDKs call). A Claude channel gets the
 * request as it is and the answer goes back untouched; any other channel is reached through the OpenAI format
 * and its answer converted back to Claude's, streaming included.
 */
export function claudeMessagesHandler(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = performance.now();
    const lang = languageOf(request);
    const caller = await authenticateRelay(ctx, request, lang);
    const body = validate(request.body, lang);
    const text = promptText(body);
    const billing = await reserveQuota(
      ctx,
      caller,
      {
        model: body.model,
        promptEstimate: Math.ceil(text.length / 4),
        maxOutput: body.max_tokens,
        promptText: () => text,
      },
      lang,
    );
    const beta = request.headers['anthropic-beta'];
    return runRelay(
      ctx,
      reply,
      billing,
      nativeFormatPlan(ctx, billing, lang, {
        adapter: claudeAdapter,
        stream: Boolean(body.stream),
        model: body.model,
        promptText: text,
        nativeCall(channel, upstreamModel) {
          const call = claudeAdapter.chatCall(channel, { model: upstreamModel, messages: [] });
          const headers: Record<string, string> = {
            ...call.headers,
            'anthropic-version': String(request.headers['anthropic-version'] ?? ANTHROPIC_VERSION),
          };
          if (typeof beta === 'string') headers['anthropic-beta'] = beta;
          return { ...call, headers, body: JSON.stringify({ ...body, model: upstreamModel }) };
        },
        toOpenAi: (upstreamModel) => claudeToOpenAiRequest(body, upstreamModel),
        nativeStream: claudePassThrough,
        fromOpenAiStream: (inner) => openAiChunksToClaude(inner, body.model),
        nativeUsage: (answer) => claudeUsage(answer.usage as Parameters<typeof claudeUsage>[0]),
        fromOpenAiAnswer: (answer) => openAiToClaudeResponse(answer, body.model),
      }),
      { lang, startedAt, requestId: String(request.id), isStream: body.stream === true, rawBody: body },
    );
  };
}
