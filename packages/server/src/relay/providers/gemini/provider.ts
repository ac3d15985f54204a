import { channelType } from '@gateway/shared';
import { toGeminiRequest } from '../../formats/gemini/request.js';
import { fromGeminiResponse } from '../../formats/gemini/response.js';
import { geminiToOpenAi } from '../../formats/gemini/stream-to-openai.js';
import type { Provider } from '../../provider.js';
import type { RuntimeChannel } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { geminiApiVersion, geminiSafetySettings } from './settings.js';
import { withSuffixThinking } from './suffix-thinking.js';

function geminiBase(channel: RuntimeChannel): string {
  return channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://generativelanguage.googleapis.com';
}

function geminiHeaders(channel: RuntimeChannel): Record<string, string> {
  return { 'content-type': 'application/json', 'x-goog-api-key': channel.key };
}

function generateUrl(channel: RuntimeChannel, model: string, stream: boolean | undefined, version: string): string {
  const action = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return `${geminiBase(channel)}/${version}/models/${encodeURIComponent(model)}:${action}`;
}

/** Google Gemini: chat converted to and from generateContent; Gemini clients are served natively. */
export const geminiProvider: Provider = {
  suffixDialect: () => 'gemini',
  // Google refuses a revoked or wrong key with a 403, or a 400 INVALID_ARGUMENT that says so.
  disablesChannel: (error) => error.status === 403 || error.message.startsWith('API key not valid'),
  functions: {
    chat: {
      call(channel, request, options) {
        const body = toGeminiRequest(request);
        body.safetySettings = geminiSafetySettings(options);
        return {
          method: 'POST',
          url: generateUrl(
            channel,
            request.model,
            request.stream,
            geminiApiVersion(options, request.model, channel.other),
          ),
          headers: geminiHeaders(channel),
          body: JSON.stringify(body),
        };
      },
      answer: fromGeminiResponse,
      stream: geminiToOpenAi,
    },
    generateContent: {
      call: (channel, request, upstreamModel, { stream, options, suffix }) => ({
        method: 'POST',
        url: generateUrl(channel, upstreamModel, stream, geminiApiVersion(options, upstreamModel, channel.other)),
        headers: geminiHeaders(channel),
        body: JSON.stringify(withSuffixThinking(request, upstreamModel, suffix)),
      }),
    },
  },
  error: readUpstreamError,
  models: {
    call: (channel) => ({
      method: 'GET',
      url: `${geminiBase(channel)}/${geminiApiVersion(undefined, '', channel.other)}/models`,
      headers: geminiHeaders(channel),
    }),
    read: (body) =>
      ((body as { models?: Array<{ name?: string }> }).models ?? [])
        .map((entry) => (entry.name ?? '').replace(/^models\//, ''))
        .filter(Boolean),
  },
};
