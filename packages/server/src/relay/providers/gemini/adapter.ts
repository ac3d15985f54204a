import { channelType } from '@gateway/shared';
import { geminiToOpenAi } from '../../stream/gemini-chunks.js';
import type { ChatRequest, ProviderAdapter, RuntimeChannel, UpstreamCall } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { toGeminiRequest } from './request.js';
import { fromGeminiResponse } from './response.js';

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

export const geminiAdapter: ProviderAdapter = {
  chatCall(channel: RuntimeChannel, request: ChatRequest): UpstreamCall {
    const action = request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    return {
      method: 'POST',
      url: `${geminiBase(channel)}/${apiVersion(channel)}/models/${encodeURIComponent(request.model)}:${action}`,
      headers: geminiHeaders(channel),
      body: JSON.stringify(toGeminiRequest(request)),
    };
  },
  chatResponse: fromGeminiResponse,
  stream: geminiToOpenAi,
  error: readUpstreamError,
  modelsCall(channel: RuntimeChannel): UpstreamCall {
    return {
      method: 'GET',
      url: `${geminiBase(channel)}/${apiVersion(channel)}/models`,
      headers: geminiHeaders(channel),
    };
  },
  modelsResponse(body: unknown): string[] {
    return ((body as { models?: Array<{ name?: string }> }).models ?? [])
      .map((entry) => (entry.name ?? '').replace(/^models\//, ''))
      .filter(Boolean);
  },
};
