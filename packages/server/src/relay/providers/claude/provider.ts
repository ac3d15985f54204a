import { channelType } from '@gateway/shared';
import { withCacheBreakpoints } from '../../formats/anthropic/cache-breakpoints.js';
import { ANTHROPIC_VERSION, toClaudeRequest } from '../../formats/anthropic/request.js';
import { fromClaudeResponse } from '../../formats/anthropic/response.js';
import { claudeToOpenAi } from '../../formats/anthropic/stream-to-openai.js';
import type { ClaudeRequest } from '../../formats/anthropic/wire.js';
import { claudeDefaultMaxTokens } from '../../model-suffix.js';
import type { Provider } from '../../provider.js';
import type { RuntimeChannel } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { claudeModelHeaders, withClaudeModelHeaders } from './settings.js';
import { withSuffixThinking } from './suffix-thinking.js';

const DEFAULT_MAX_TOKENS = 8192;

function claudeHeaders(channel: RuntimeChannel): Record<string, string> {
  return { 'content-type': 'application/json', 'x-api-key': channel.key, 'anthropic-version': ANTHROPIC_VERSION };
}

function claudeBase(channel: RuntimeChannel): string {
  return channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://api.anthropic.com';
}

/** Prompt-cache breakpoints added where the channel asks (cache-breakpoints.ts; off by default). */
function cached(channel: RuntimeChannel, request: ClaudeRequest): ClaudeRequest {
  return channel.setting?.claude_cache_breakpoints === true ? withCacheBreakpoints(request) : request;
}

/** Anthropic: chat converted to and from Messages; Messages clients are served natively. */
export const claudeProvider: Provider = {
  suffixDialect: () => 'claude',
  functions: {
    chat: {
      call: (channel, request, options) => ({
        method: 'POST',
        url: `${claudeBase(channel)}/v1/messages`,
        headers: withClaudeModelHeaders(claudeHeaders(channel), claudeModelHeaders(options, request.model)),
        body: JSON.stringify(
          cached(
            channel,
            toClaudeRequest(
              request,
              options ? claudeDefaultMaxTokens(options, request.model) : DEFAULT_MAX_TOKENS,
            ) as ClaudeRequest,
          ),
        ),
      }),
      answer: fromClaudeResponse,
      stream: claudeToOpenAi,
    },
    messages: {
      call(channel, request, upstreamModel, { headers: client, options, suffix }) {
        const headers = claudeHeaders(channel);
        // The client's API version and beta flags decide what the upstream accepts (Claude Code sends both).
        const version = client['anthropic-version'];
        if (typeof version === 'string') headers['anthropic-version'] = version;
        const beta = client['anthropic-beta'];
        if (typeof beta === 'string') headers['anthropic-beta'] = beta;
        withClaudeModelHeaders(headers, claudeModelHeaders(options, upstreamModel));
        return {
          method: 'POST',
          url: `${claudeBase(channel)}/v1/messages`,
          headers,
          body: JSON.stringify(cached(channel, withSuffixThinking({ ...request, model: upstreamModel }, suffix))),
        };
      },
    },
  },
  error: readUpstreamError,
  models: {
    call: (channel) => ({ method: 'GET', url: `${claudeBase(channel)}/v1/models`, headers: claudeHeaders(channel) }),
    read: (body) =>
      ((body as { data?: Array<{ id?: string }> }).data ?? []).map((entry) => entry.id ?? '').filter(Boolean),
  },
};
