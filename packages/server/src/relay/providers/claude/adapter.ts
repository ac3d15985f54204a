import { channelType } from '@gateway/shared';
import type { Provider } from '../../provider.js';
import type { RuntimeChannel } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { ANTHROPIC_VERSION, toClaudeRequest } from './request.js';
import { fromClaudeResponse } from './response.js';
import { claudeUpstreamSettings, withClaudeModelHeaders } from './settings.js';
import { claudeToOpenAi } from './stream-to-openai.js';
import { withSuffixThinking } from './suffix-thinking.js';

function claudeHeaders(channel: RuntimeChannel): Record<string, string> {
  return { 'content-type': 'application/json', 'x-api-key': channel.key, 'anthropic-version': ANTHROPIC_VERSION };
}

function claudeBase(channel: RuntimeChannel): string {
  return channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://api.anthropic.com';
}

/** Anthropic: chat converted to and from Messages; Messages clients are served natively. */
export const claudeProvider: Provider = {
  functions: {
    chat: {
      call(channel, request, options) {
        const settings = claudeUpstreamSettings(options, request.model);
        return {
          method: 'POST',
          url: `${claudeBase(channel)}/v1/messages`,
          headers: withClaudeModelHeaders(claudeHeaders(channel), settings.headers),
          body: JSON.stringify(toClaudeRequest(request, settings.defaultMaxTokens)),
        };
      },
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
        withClaudeModelHeaders(headers, claudeUpstreamSettings(options, upstreamModel).headers);
        return {
          method: 'POST',
          url: `${claudeBase(channel)}/v1/messages`,
          headers,
          body: JSON.stringify(withSuffixThinking({ ...request, model: upstreamModel }, suffix)),
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
