import type { Language } from '@gateway/shared';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { ResponseOwners } from '../affinity/response-owners.js';
import type { AnswerReader, Endpoint, Leg, ParsedRequest } from '../endpoint.js';
import { RelayError } from '../errors.js';
import { chatToResponsesAnswer } from '../formats/responses/chat-to-responses.js';
import { chatUsageOfResponses } from '../formats/responses/responses-answer-to-chat.js';
import { chatChunksToResponses } from '../formats/responses/responses-from-chat-stream.js';
import { responsesPassThrough } from '../formats/responses/responses-stream.js';
import { responsesToChatRequest } from '../formats/responses/responses-to-chat.js';
import type { ResponsesItem, ResponsesRequest } from '../formats/responses/responses-wire.js';
import { SOCKET_SESSION_HEADER, socketSessions } from '../sessions/socket-sessions.js';
import { openResponsesSocket } from '../sessions/upstream-socket.js';
import type { Usage } from '../types.js';
import { countTextTokens } from '../usage.js';
import { type NativeFormat, planNativeFormat } from './native-format.js';
import { openAiUsage } from './openai-routes.js';
import { responsesModeFor, switchingToChatOn404, withoutNativeResponses } from './responses-mode.js';

export function validateResponsesBody(body: unknown, lang: Language): ResponsesRequest {
  const invalid = (reason: string) => RelayError.of(400, lang, 'relay_body_invalid', { reason }, 'invalid_request');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('JSON object expected');
  const request = body as ResponsesRequest;
  if (typeof request.model !== 'string' || !request.model.trim()) throw invalid('model is required');
  if (request.input !== undefined && typeof request.input !== 'string' && !Array.isArray(request.input)) {
    throw invalid('input must be a string or a list of items');
  }
  return request;
}

function itemText(item: ResponsesItem): string {
  const record = item as Record<string, unknown>;
  const parts = [record.content, record.arguments, record.input, record.output, record.summary];
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if (Array.isArray(part)) return part.map((inner) => String((inner as { text?: unknown }).text ?? '')).join('\n');
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

/** What the model reads as text: instructions, input items and tool definitions. */
export function responsesPromptText(request: ResponsesRequest): string {
  const input = typeof request.input === 'string' ? request.input : (request.input ?? []).map(itemText).join('\n');
  const tools = (request.tools ?? []).map((tool) => JSON.stringify(tool));
  return [request.instructions ?? '', input, ...tools].filter(Boolean).join('\n');
}

/** A Responses (or compaction) answer's usage; some proxies answer OpenAI's chat names. */
export function responsesUsage(answer: Record<string, unknown>): Usage | null {
  return chatUsageOfResponses(answer.usage as Parameters<typeof chatUsageOfResponses>[0]) ?? openAiUsage(answer);
}

const RESPONSES: NativeFormat<ResponsesRequest> = {
  native(provider) {
    const responses = provider.functions.responses;
    if (!responses) return undefined;
    return {
      call(channel, request, upstreamModel, { suffix }) {
        // `o3-mini-high`: the effort the name carries is the Responses API's reasoning.effort (family).
        const body =
          suffix?.kind === 'effort'
            ? { ...request, model: upstreamModel, reasoning: { ...request.reasoning, effort: suffix.effort } }
            : { ...request, model: upstreamModel };
        return responses.call(channel, JSON.stringify(body), upstreamModel, 'application/json');
      },
    };
  },
  nativeStream: responsesPassThrough,
  nativeUsage: responsesUsage,
  isNativeAnswer: (answer) => Array.isArray(answer.output),
  toChat: (request, upstreamModel) => responsesToChatRequest(request, upstreamModel),
  fromChatStream: (inner, model, request) => chatChunksToResponses(inner, model, request),
  fromChatAnswer: (answer, model, request) => chatToResponsesAnswer(answer, model, request),
};

/** The request as the conveyor reads it (compaction's too): the prompt estimated, counted when unreported. */
export function parseResponsesRequest(
  body: ResponsesRequest,
  headers: ParsedRequest<ResponsesRequest>['headers'],
): ParsedRequest<ResponsesRequest> {
  const text = responsesPromptText(body);
  return {
    model: body.model,
    stream: body.stream === true,
    body,
    reserve: {
      promptEstimate: Math.ceil(text.length / 4),
      maxOutput: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : 0,
      promptText: () => text,
    },
    countPrompt: () => countTextTokens(text),
    rawBody: body,
    headers,
  };
}

/** A native answer's response id is remembered with the channel and key that hold it, for its later routes. */
function rememberCreated(
  leg: Leg,
  request: ParsedRequest<ResponsesRequest>,
  channel: CachedChannel,
  owners: ResponseOwners,
) {
  const owner = request.ownerId;
  if (owner === undefined) return;
  const binding = { channelId: channel.id, keyIndex: Math.max(0, channel.keys.indexOf(channel.key)) };
  const note = (id: string) => owners.remember(owner, id, binding);
  if (leg.read.kind === 'sse') {
    leg.read = { kind: 'sse', converter: responsesPassThrough(note) };
    return;
  }
  const read = leg.read;
  if (read.kind !== 'json') return;
  leg.read = {
    kind: 'json',
    convert(json, raw) {
      const answer = read.convert(json, raw);
      if (typeof json.id === 'string') note(json.id);
      return answer;
    },
  } satisfies AnswerReader;
}

/**
 * `POST /v1/responses` (OpenAI's Responses API: Codex CLI, the openai SDK's responses.create). A provider that serves
 * it gets the request as it is; any chat provider is reached through the hub format and its answer turned into
 * Responses output items and events, tools included. A stored response made natively is remembered with its channel
 * (`owners`), so `GET /v1/responses/{id}` and its siblings reach it (handlers/response-resource.ts).
 */
export function responsesEndpoint(owners: ResponseOwners): Endpoint<ResponsesRequest> {
  return {
    parse(request, lang, caller) {
      const body = validateResponsesBody(request.body, lang);
      const parsed = parseResponsesRequest(body, request.headers);
      // `store: false` (Codex) leaves nothing upstream to come back to.
      if (body.store !== false) parsed.ownerId = caller.user.id;
      return parsed;
    },
    plan(provider, channel, request, upstreamModel, options, suffix) {
      const native = provider.functions.responses !== undefined;
      // A native provider's channel may say to convert (responses-mode.ts); one without chat cannot (Codex).
      const mode = native && provider.functions.chat ? responsesModeFor(channel) : 'native';
      const converted = () =>
        planNativeFormat(RESPONSES, withoutNativeResponses(provider), channel, request, upstreamModel, options, suffix);
      if (mode === 'chat') return converted();
      let leg = planNativeFormat(RESPONSES, provider, channel, request, upstreamModel, options, suffix);
      if (!leg || !native) return leg;
      rememberCreated(leg, request, channel, owners);
      // Made on a client's WebSocket (sessions/responses-socket.ts): a native channel is reached over its own.
      // A provider that opens its calls itself (Codex: credential headers) sends them through `leg.open` too.
      const session = request.headers[SOCKET_SESSION_HEADER];
      if (request.stream && typeof session === 'string' && socketSessions.isLive(session)) {
        leg.open = (call, sending) => openResponsesSocket(call, session, sending);
      }
      if (mode === 'auto') leg = switchingToChatOn404(leg, converted, channel);
      return leg;
    },
  };
}
