import { channelType } from '@gateway/shared';
import type { Provider } from '../../provider.js';
import type { RuntimeChannel } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { toGeminiRequest } from './request.js';
import { fromGeminiResponse } from './response.js';
import { geminiToOpenAi } from './stream-to-openai.js';

function geminiBase(channel: RuntimeChannel): string {
  return channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://generativelanguage.googleapis.com';
}

/** The channel's `other` holds the API version (family convention); v1beta has every current feature. */
function apiVersion(channel: RuntimeChannel): string {
  return /^v\d+(beta|alpha)?\d*$/.test(channel.other) ? channel.other : 'v1beta';
}

function geminiHeaders(channel: RuntimeChannel): Record<string, string> {
  return { 'content-type': 'application/json', 'x-goog-api-key': channel.key };
}

function generateUrl(channel: RuntimeChannel, model: string, stream: boolean | undefined): string {
  const action = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return `${geminiBase(channel)}/${apiVersion(channel)}/models/${encodeURIComponent(model)}:${action}`;
}

/** Google Gemini: chat converted to and from generateContent; Gemini clients are served natively. */
export const geminiProvider: Provider = {
  functions: {
    chat: {
      call: (channel, request) => ({
        method: 'POST',
        url: generateUrl(channel, request.model, request.stream),
        headers: geminiHeaders(channel),
        body: JSON.stringify(toGeminiRequest(request)),
      }),
      answer: fromGeminiResponse,
      stream: geminiToOpenAi,
    },
    generateContent: {
      call: (channel, request, upstreamModel, { stream }) => ({
        method: 'POST',
        url: generateUrl(channel, upstreamModel, stream),
        headers: geminiHeaders(channel),
        body: JSON.stringify(request),
      }),
    },
  },
  error: readUpstreamError,
  models: {
    call: (channel) => ({
      method: 'GET',
      url: `${geminiBase(channel)}/${apiVersion(channel)}/models`,
      headers: geminiHeaders(channel),
    }),
    read: (body) =>
      ((body as { models?: Array<{ name?: string }> }).models ?? [])
        .map((entry) => (entry.name ?? '').replace(/^models\//, ''))
        .filter(Boolean),
  },
};
