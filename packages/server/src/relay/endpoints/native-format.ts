import type { CachedChannel } from '../../cache/channel-cache.js';
import type { Leg, ParsedRequest } from '../endpoint.js';
import { OMITTED_TOOLS_HEADER, omittedTools } from '../formats/openai-chat/omitted-tools.js';
import { type ModelSuffix, withModelSuffix } from '../model-suffix.js';
import type { NativeFunction, OptionReader, Provider } from '../provider.js';
import type { ChunkConverter } from '../stream/stream-state.js';
import type { ChatRequest, ChatResponse, Usage } from '../types.js';
import { answerText, chatAnswer } from './chat-answer.js';

/**
 * A client API with its own wire format (Anthropic Messages, Gemini generateContent). A provider that speaks it
 * natively gets the request as it is and its answer goes back untouched; any provider with a chat function is
 * reached through the OpenAI format and its answer converted back, streaming included.
 */
export interface NativeFormat<Request> {
  native(provider: Provider): NativeFunction<Request> | undefined;
  nativeStream(): ChunkConverter;
  nativeUsage(answer: Record<string, unknown>): Usage | null;
  /** Whether a native 2xx body is an answer of the format (not a proxy's own JSON): it goes back untouched. */
  isNativeAnswer(answer: Record<string, unknown>): boolean;
  toChat(request: Request, upstreamModel: string, stream: boolean, options: OptionReader): ChatRequest;
  fromChatStream(inner: ChunkConverter, clientModel: string, request: Request): ChunkConverter;
  fromChatAnswer(answer: ChatResponse, clientModel: string, request: Request): unknown;
}

const passJson = <Request>(format: NativeFormat<Request>) => ({
  kind: 'json' as const,
  convert: (json: Record<string, unknown>, raw: string) => {
    // The conveyor answers a throw here as an unreadable upstream answer.
    if (!format.isNativeAnswer(json)) throw new Error('not an answer of the native format');
    return { body: raw, contentType: 'application/json', usage: format.nativeUsage(json), outputText: '' };
  },
});

export function planNativeFormat<Request>(
  format: NativeFormat<Request>,
  provider: Provider,
  channel: CachedChannel,
  request: ParsedRequest<Request>,
  upstreamModel: string,
  options: OptionReader,
  suffix: ModelSuffix | null,
): Leg | null {
  const native = format.native(provider);
  if (native && (native.serves?.(upstreamModel) ?? true)) {
    const call = native.call(channel, request.body, upstreamModel, {
      stream: request.stream,
      headers: request.headers,
      options,
      suffix,
    });
    return {
      call,
      read: request.stream ? { kind: 'sse', converter: format.nativeStream() } : passJson(format),
    };
  }
  const chat = provider.functions.chat;
  if (!chat) return null;
  const converted = withModelSuffix(format.toChat(request.body, upstreamModel, request.stream, options), suffix);
  const call = chat.call(channel, converted, options);
  const omitted = omittedTools(converted);
  const headers = omitted.length ? { [OMITTED_TOOLS_HEADER]: omitted.join(', ') } : undefined;
  if (request.stream) {
    return {
      call,
      headers,
      read: {
        kind: 'sse',
        converter: format.fromChatStream(chat.stream(upstreamModel, true), request.model, request.body),
      },
    };
  }
  return {
    call,
    headers,
    read: {
      kind: 'json',
      convert(json) {
        const answer = chatAnswer(chat, json, upstreamModel);
        return {
          body: JSON.stringify(format.fromChatAnswer(answer, request.model, request.body)),
          contentType: 'application/json',
          usage: answer.usage ?? null,
          outputText: answerText(answer),
        };
      },
    },
  };
}
