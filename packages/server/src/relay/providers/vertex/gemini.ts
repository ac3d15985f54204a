import { toGeminiRequest } from '../../formats/gemini/request.js';
import type { GeminiRequest } from '../../formats/gemini/wire.js';
import type { NativeFunction, OptionReader } from '../../provider.js';
import type { ChatRequest, RuntimeChannel, UpstreamCall } from '../../types.js';
import { geminiSafetySettings } from '../gemini/settings.js';
import { withSuffixThinking } from '../gemini/suffix-thinking.js';
import { isClaudeModel } from './claude-models.js';
import { publisherUrl, vertexHeaders } from './location.js';

/** `:generateContent`, or `:streamGenerateContent?alt=sse` (events, as the Gemini stream converters read them). */
function geminiCall(channel: RuntimeChannel, model: string, stream: boolean, body: unknown): UpstreamCall {
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return {
    method: 'POST',
    url: publisherUrl(channel, 'google', model, method),
    headers: vertexHeaders(channel),
    body: JSON.stringify(body),
  };
}

/** OpenAI chat → generateContent (the Gemini provider's converter, `gemini.safety_settings` applied). */
export function geminiChatCall(channel: RuntimeChannel, request: ChatRequest, options?: OptionReader): UpstreamCall {
  const body = toGeminiRequest(request);
  body.safetySettings = geminiSafetySettings(options);
  return geminiCall(channel, request.model, request.stream === true, body);
}

/**
 * Gemini clients (`…:generateContent`) on a Vertex channel: the body goes as it is, with the thinking a model-name
 * suffix asks for. A Claude model cannot answer in generateContent natively: the conveyor reaches it through chat
 * and converts.
 */
export const geminiGenerateContent: NativeFunction<GeminiRequest> = {
  serves: (model) => !isClaudeModel(model),
  call(channel, request, upstreamModel, { stream, suffix }) {
    return geminiCall(channel, upstreamModel, stream, withSuffixThinking(request, upstreamModel, suffix));
  },
};
