import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticatePlayground, authenticateRelay, type RelayCaller } from '../auth.js';
import { RelayError } from '../errors.js';
import { type Attempt, type RelayPlan, runRelay, type UpstreamResponse } from '../pipeline.js';
import { messageText } from '../providers/text-content.js';
import { type Billing, reserveQuota } from '../reserve.js';
import { finishAttempt, readUpstreamJson, relaySse } from '../respond.js';
import { withChannelStreamSetting } from '../stream/channel-stream-setting.js';
import type { ChatRequest, Usage } from '../types.js';
import { countPromptTokens, countTextTokens, estimatePromptTokens, maxOutputTokens } from '../usage.js';

export function validateChat(body: unknown, lang: Language): ChatRequest {
  const request = body as ChatRequest | null;
  const invalid = (reason: string) => RelayError.of(400, lang, 'relay_body_invalid', { reason }, 'invalid_request');
  if (typeof request !== 'object' || request === null || Array.isArray(request)) throw invalid('JSON object expected');
  if (typeof request.model !== 'string' || request.model.trim() === '') throw invalid('model is required');
  if (!Array.isArray(request.messages) || request.messages.length === 0) {
    throw invalid('messages must be a non-empty array');
  }
  return request;
}

/** Upstream usage when it has any; otherwise counted here with the tokenizer (and flagged in the log). */
async function usageOrCount(body: ChatRequest, usage: Usage | null | undefined, text: string) {
  if (usage && (usage.prompt_tokens > 0 || usage.completion_tokens > 0)) return { usage, countedLocally: false };
  const prompt = await countPromptTokens(body);
  const completion = await countTextTokens(text);
  return {
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    countedLocally: true,
  };
}

/**
 * A channel's `setting.system_prompt` is added when the request has no system message; with
 * `system_prompt_override` it is also put in front of an existing one (family behaviour).
 */
export function withSystemPrompt(request: ChatRequest, setting: Record<string, unknown> | null): ChatRequest {
  const prompt = typeof setting?.system_prompt === 'string' ? setting.system_prompt : '';
  if (!prompt) return request;
  const index = request.messages.findIndex((message) => message.role === 'system');
  if (index === -1) return { ...request, messages: [{ role: 'system', content: prompt }, ...request.messages] };
  if (setting?.system_prompt_override !== true) return request;
  const messages = [...request.messages];
  const existing = messages[index]!;
  messages[index] = {
    ...existing,
    content: `${prompt}\n${typeof existing.content === 'string' ? existing.content : ''}`,
  };
  return { ...request, messages };
}

/** The chat endpoint as a pipeline plan: every provider adapter converts to and from the OpenAI format. */
export function chatPlan(ctx: AppContext, billing: Billing, body: ChatRequest, lang: Language): RelayPlan {
  return {
    call: (channel, adapter, upstreamModel) =>
      adapter.chatCall(channel, withSystemPrompt({ ...body, model: upstreamModel }, channel.setting)),
    async succeed(attempt: Attempt, response: UpstreamResponse, reply: FastifyReply) {
      if (body.stream) {
        const converter = withChannelStreamSetting(
          attempt.adapter.stream(attempt.upstreamModel, body.stream_options?.include_usage === true),
          attempt.channel.setting,
        );
        const { state, interruption } = await relaySse(attempt, response, reply, converter);
        const counted = await usageOrCount(body, state.usage, state.text);
        finishAttempt(ctx, billing, attempt, {
          ...counted,
          isStream: true,
          firstTokenMs: state.firstTokenMs,
          interruption,
        });
        return;
      }
      const { raw: text, parsed } = await readUpstreamJson(response, lang);
      const converted = attempt.adapter.chatResponse(parsed, attempt.upstreamModel);
      const content = (converted.choices ?? [])
        .map((choice) => (typeof choice.message?.content === 'string' ? choice.message.content : ''))
        .join('');
      const counted = await usageOrCount(body, converted.usage, content);
      finishAttempt(ctx, billing, attempt, {
        ...counted,
        isStream: false,
        firstTokenMs: Math.round(performance.now() - attempt.startedAt),
      });
      // OpenAI-format answers go back byte for byte; converted ones are serialised once.
      reply.header('content-type', 'application/json');
      reply.send((parsed as unknown) === converted ? text : JSON.stringify(converted));
    },
  };
}

/** `POST /v1/chat/completions` (API key) and `POST /pg/chat/completions` (console session, playground). */
export async function handleChatCompletions(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  playground = false,
) {
  const startedAt = performance.now();
  const lang = languageOf(request);
  // Authentication comes first, as in the family: a request without a valid key learns nothing else.
  const raw = request.body as { group?: unknown } | null;
  const caller: RelayCaller = playground
    ? await authenticatePlayground(ctx, request, lang, typeof raw?.group === 'string' ? raw.group : '')
    : await authenticateRelay(ctx, request, lang);
  const body = validateChat(raw, lang);
  if (playground) delete body.group;
  const billing = await reserveQuota(
    ctx,
    caller,
    {
      model: body.model,
      promptEstimate: estimatePromptTokens(body.messages),
      maxOutput: maxOutputTokens(body),
      promptText: () => body.messages.map(messageText).join('\n'),
    },
    lang,
  );
  return runRelay(ctx, reply, billing, chatPlan(ctx, billing, body, lang), {
    lang,
    startedAt,
    requestId: String(request.id),
    isStream: body.stream === true,
    rawBody: body,
  });
}
