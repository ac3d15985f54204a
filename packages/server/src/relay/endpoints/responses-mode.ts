import { type ResponsesMode, responsesModeOf } from '@gateway/shared';
import type { CachedChannel } from '../../cache/channel-cache.js';
import type { Leg } from '../endpoint.js';
import { withHeaderOverride } from '../overrides/apply.js';
import type { Provider } from '../provider.js';
import { type SendOptions, sendUpstream, type UpstreamResponse } from '../send.js';
import type { UpstreamCall } from '../types.js';

/** How long a channel that said it has no Responses API is reached through chat before native is tried again. */
const RETRY_NATIVE_AFTER_MS = 60 * 60 * 1000;

/**
 * Channels in `auto` mode whose upstream answered 404 or 405 on `/responses` (vLLM, Ollama, older gateways behind
 * an OpenAI row): until when each goes through the chat conversion. Per node, in memory: a node that has not met the
 * 404 yet meets it once, on one request that still succeeds (the switch happens within that request).
 */
class NativeResponsesMisses {
  private readonly until = new Map<number, number>();

  constructor(private readonly now: () => number = Date.now) {}

  viaChat(channelId: number): boolean {
    const until = this.until.get(channelId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(channelId);
    return false;
  }

  mark(channelId: number): void {
    this.until.set(channelId, this.now() + RETRY_NATIVE_AFTER_MS);
  }

  /** Until when (unix seconds) the channel goes through chat, or null: shown on the console's channel list. */
  viaChatUntil(channelId: number): number | null {
    return this.viaChat(channelId) ? Math.floor((this.until.get(channelId) ?? 0) / 1000) : null;
  }
}

export const nativeResponsesMisses = new NativeResponsesMisses();

/** The channel's choice, for a provider that serves Responses natively (others always convert). */
export function responsesModeFor(channel: CachedChannel): ResponsesMode {
  const mode = responsesModeOf(channel.setting);
  if (mode === 'auto' && nativeResponsesMisses.viaChat(channel.id)) return 'chat';
  return mode;
}

/** The provider as the conversion sees it: its chat function only (Responses reached through chat). */
export function withoutNativeResponses(provider: Provider): Provider {
  return { ...provider, functions: { ...provider.functions, responses: undefined } };
}

/**
 * A native leg that turns into the converted one on the same channel when the upstream has no `/responses` route
 * (404 or 405): the channel is remembered as converting, the chat call is sent (with the channel's header
 * override), and the answer is read as the conversion reads it. `read` and `headers` are getters because the
 * conveyor reads them after `open` has decided; both legs read the same kind of answer (SSE or JSON), which it may
 * look at before.
 */
export function switchingToChatOn404(native: Leg, converted: () => Leg | null, channel: CachedChannel): Leg {
  let chat: Leg | null = null;
  const open = native.open ?? ((call: UpstreamCall, sending: SendOptions) => sendUpstream(call, sending));
  return {
    call: native.call,
    paramOverride: native.paramOverride,
    get read() {
      return chat ? chat.read : native.read;
    },
    get headers() {
      return chat ? chat.headers : native.headers;
    },
    async open(call: UpstreamCall, sending: SendOptions): Promise<UpstreamResponse> {
      const response = await open(call, sending);
      if (response.statusCode !== 404 && response.statusCode !== 405) return response;
      const leg = converted();
      if (!leg) return response;
      await response.body.dump();
      nativeResponsesMisses.mark(channel.id);
      chat = leg;
      return sendUpstream({ ...leg.call, headers: withHeaderOverride(leg.call.headers, channel) }, sending);
    },
  };
}
