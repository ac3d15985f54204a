import type { Language } from '@gateway/shared';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { AppContext } from '../../context.js';
import type { RelayPlan } from '../pipeline.js';
import type { Billing } from '../reserve.js';
import { finishAttempt, readUpstreamJson, relaySse, streamUsage } from '../respond.js';
import type { ChunkConverter } from '../stream/stream-state.js';
import type { ChatRequest, ChatResponse, ProviderAdapter, UpstreamCall, Usage } from '../types.js';

/**
 * A client API with its own wire format (Anthropic Messages, Gemini generateContent): channels of that provider get
 * the request natively and their answer goes back untouched; every other channel is reached through the OpenAI
 * format and its answer converted back, streaming included.
 */
export interface NativeFormat {
  /** The adapter of the channels that speak this format. */
  adapter: ProviderAdapter;
  stream: boolean;
  /** The model the client asked for, named in converted answers. */
  model: string;
  /** The prompt as text, counted when a stream reports no usage. */
  promptText: string;
  nativeCall(channel: CachedChannel, upstreamModel: string): UpstreamCall;
  toOpenAi(upstreamModel: string): ChatRequest;
  nativeStream(): ChunkConverter;
  fromOpenAiStream(inner: ChunkConverter): ChunkConverter;
  nativeUsage(answer: Record<string, unknown>): Usage;
  fromOpenAiAnswer(answer: ChatResponse): unknown;
}

export function nativeFormatPlan(ctx: AppContext, billing: Billing, lang: Language, format: NativeFormat): RelayPlan {
  return {
    call: (channel, adapter, upstreamModel) =>
      adapter === format.adapter
        ? format.nativeCall(channel, upstreamModel)
        : adapter.chatCall(channel, format.toOpenAi(upstreamModel)),
    async succeed(attempt, response, out) {
      const native = attempt.adapter === format.adapter;
      if (format.stream) {
        const converter = native
          ? format.nativeStream()
          : format.fromOpenAiStream(attempt.adapter.stream(attempt.upstreamModel, true));
        const { state, interruption } = await relaySse(attempt, response, out, converter);
        finishAttempt(ctx, billing, attempt, {
          ...(await streamUsage(state, format.promptText)),
          isStream: true,
          firstTokenMs: state.firstTokenMs,
          interruption,
        });
        return;
      }
      const { raw, parsed } = await readUpstreamJson(response, lang);
      const converted = native ? null : attempt.adapter.chatResponse(parsed, attempt.upstreamModel);
      finishAttempt(ctx, billing, attempt, {
        usage: (converted ? converted.usage : format.nativeUsage(parsed)) ?? {
          prompt_tokens: 0,
          completion_tokens: 0,
          total_tokens: 0,
        },
        countedLocally: false,
        isStream: false,
        firstTokenMs: Math.round(performance.now() - attempt.startedAt),
      });
      out.header('content-type', 'application/json');
      out.send(converted ? JSON.stringify(format.fromOpenAiAnswer(converted)) : raw);
    },
  };
}
