import type { Language } from '@gateway/shared';
import type { FastifyRequest } from 'fastify';
import { authenticatePlayground } from '../admission/authenticate.js';
import type { Endpoint, Leg, ParsedRequest } from '../endpoint.js';
import { RelayError } from '../errors.js';
import { messageText } from '../formats/openai-chat/text-content.js';
import { withModelSuffix } from '../model-suffix.js';
import type { ChatFunction, OptionReader } from '../provider.js';
import { withChannelStreamSetting } from '../stream/channel-stream-setting.js';
import type { ChatRequest } from '../types.js';
import { countPromptTokens, estimatePromptTokens, maxOutputTokens } from '../usage.js';
import { answerText, chatAnswer } from './chat-answer.js';
import { chatGoesThroughResponses, chatViaResponsesLeg } from './chat-via-responses.js';
import { withSystemPrompt } from './system-prompt.js';

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

/** An OpenAI chat request carried out by a provider's chat function, its answer in the OpenAI shape. */
export function chatLeg(
  chat: ChatFunction,
  channel: Parameters<ChatFunction['call']>[0] & { setting: Record<string, unknown> | null },
  request: ChatRequest,
  options?: OptionReader,
): Leg {
  const call = chat.call(channel, withSystemPrompt(request, channel.setting), options);
  if (request.stream) {
    const converter = chat.stream(request.model, request.stream_options?.include_usage === true);
    return { call, read: { kind: 'sse', converter: withChannelStreamSetting(converter, channel.setting) } };
  }
  return {
    call,
    read: {
      kind: 'json',
      convert(json, raw) {
        const answer = chatAnswer(chat, json, request.model);
        // OpenAI-format answers go back byte for byte; converted ones are serialised once.
        const body = (json as unknown) === answer ? raw : JSON.stringify(answer);
        return { body, contentType: 'application/json', usage: answer.usage ?? null, outputText: answerText(answer) };
      },
    },
  };
}

function parseChat(body: ChatRequest, request: FastifyRequest): ParsedRequest<ChatRequest> {
  return {
    model: body.model,
    stream: body.stream === true,
    body,
    reserve: {
      promptEstimate: estimatePromptTokens(body.messages),
      maxOutput: maxOutputTokens(body),
      promptText: () => body.messages.map(messageText).join('\n'),
    },
    countPrompt: () => countPromptTokens(body),
    rawBody: body,
    headers: request.headers,
  };
}

/** `POST /v1/chat/completions`: every provider with a chat function serves it. */
export const chatEndpoint: Endpoint<ChatRequest> = {
  parse: (request, lang) => parseChat(validateChat(request.body, lang), request),
  plan(provider, channel, request, upstreamModel, options, suffix) {
    const { chat, responses } = provider.functions;
    const body = withModelSuffix({ ...request.body, model: upstreamModel }, suffix);
    if (responses && chatGoesThroughResponses(chat !== undefined, channel, upstreamModel, options)) {
      return chatViaResponsesLeg(responses, channel, body);
    }
    return chat ? chatLeg(chat, channel, body, options) : null;
  },
};

/** `POST /pg/chat/completions`: the console's playground, on the signed-in user's session and chosen group. */
export const playgroundChatEndpoint: Endpoint<ChatRequest> = {
  ...chatEndpoint,
  authenticate(ctx, request, lang) {
    const raw = request.body as { group?: unknown } | null;
    return authenticatePlayground(ctx, request, lang, typeof raw?.group === 'string' ? raw.group : '');
  },
  parse(request, lang) {
    const body = validateChat(request.body, lang);
    delete body.group;
    return parseChat(body, request);
  },
};
