import { parseResponsesPolicy, type ResponsesPolicy, responsesPolicyApplies } from '@gateway/shared';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { Leg } from '../endpoint.js';
import { chatToResponsesRequest } from '../formats/responses/chat-request-to-responses.js';
import { responsesAnswerToChat } from '../formats/responses/responses-answer-to-chat.js';
import { responsesToChatChunks } from '../formats/responses/responses-stream-to-chat.js';
import type { OptionReader, RouteFunction } from '../provider.js';
import { withChannelStreamSetting } from '../stream/channel-stream-setting.js';
import type { ChatRequest } from '../types.js';
import { answerText } from './chat-answer.js';
import { withSystemPrompt } from './system-prompt.js';

const POLICY_KEY = 'global.chat_completions_to_responses_policy';

// The policy is parsed (its patterns compiled) once per stored value, not per request.
let parsed: { raw: string; policy: ResponsesPolicy | null } = { raw: '', policy: null };

function policyOf(options: OptionReader): ResponsesPolicy | null {
  const raw = options.get(POLICY_KEY);
  if (raw !== parsed.raw) {
    let value: unknown = null;
    try {
      value = JSON.parse(raw);
    } catch {
      // an unreadable stored value means no policy (the option API refuses to store one)
    }
    parsed = { raw, policy: parseResponsesPolicy(value) };
  }
  return parsed.policy;
}

/**
 * Whether a chat request goes to this channel's Responses API: always when the provider answers only there (a Codex
 * channel), else when the operator's policy names the channel and the upstream model. Pass-through sends the client's
 * body as it came, so the policy then stands aside (family rule).
 */
export function chatGoesThroughResponses(
  hasChat: boolean,
  channel: CachedChannel,
  upstreamModel: string,
  options: OptionReader,
): boolean {
  if (!hasChat) return true;
  if (channel.setting?.pass_through_body_enabled === true || options.bool('global.pass_through_request_enabled')) {
    return false;
  }
  const policy = policyOf(options);
  return policy !== null && responsesPolicyApplies(policy, channel.id, channel.type, upstreamModel);
}

/** A chat request carried out through the provider's Responses API, its answer read back as a chat completion. */
export function chatViaResponsesLeg(responses: RouteFunction, channel: CachedChannel, request: ChatRequest): Leg {
  const body = chatToResponsesRequest(withSystemPrompt(request, channel.setting), request.model);
  const call = responses.call(channel, JSON.stringify(body), request.model, 'application/json');
  if (request.stream) {
    const converter = responsesToChatChunks(request.model, request.stream_options?.include_usage === true);
    return { call, read: { kind: 'sse', converter: withChannelStreamSetting(converter, channel.setting) } };
  }
  return {
    call,
    read: {
      kind: 'json',
      convert(json) {
        const answer = responsesAnswerToChat(json, request.model);
        return {
          body: JSON.stringify(answer),
          contentType: 'application/json',
          usage: answer.usage ?? null,
          outputText: answerText(answer),
        };
      },
    },
  };
}
