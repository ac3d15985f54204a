import { channelType } from '@gateway/shared';
import { claudeToOpenAi } from '../../stream/claude-chunks.js';
import type { ChatRequest, ProviderAdapter, RuntimeChannel, UpstreamCall } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { ANTHROPIC_VERSION, toClaudeRequest } from './request.js';
import { fromClaudeResponse } from './response.js';

const DEFAULT_MAX_TOKENS = 8192;

function claudeHeaders(channel: RuntimeChannel): Record<string, string> {
  return { 'content-type': 'application/json', 'x-api-key': channel.key, 'anthropic-version': ANTHROPIC_VERSION };
}

function claudeBase(channel: RuntimeChannel): string {
  return channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://api.anthropic.com';
}

export const claudeAdapter: ProviderAdapter = {
  chatCall(channel: RuntimeChannel, request: ChatRequest): UpstreamCall {
    return {
      method: 'POST',
      url: `${claudeBase(channel)}/v1/messages`,
      headers: claudeHeaders(channel),
      body: JSON.stringify(toClaudeRequest(request, DEFAULT_MAX_TOKENS)),
    };
  },
  chatResponse: fromClaudeResponse,
  stream: claudeToOpenAi,
  error: readUpstreamError,
  modelsCall(channel: RuntimeChannel): UpstreamCall {
    return { method: 'GET', url: `${claudeBase(channel)}/v1/models`, headers: claudeHeaders(channel) };
  },
  modelsResponse(body: unknown): string[] {
    return ((body as { data?: Array<{ id?: string }> }).data ?? []).map((entry) => entry.id ?? '').filter(Boolean);
  },
};
