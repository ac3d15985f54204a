import { channelType } from '@gateway/shared';
import { openAiPassThrough } from '../../stream/openai-chunks.js';
import type { ChatRequest, ChatResponse, ProviderAdapter, RuntimeChannel, UpstreamCall } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { openAiRow } from './rows.js';

export function openAiUrl(channel: RuntimeChannel, route: string, model = ''): string {
  const row = openAiRow(channel.type);
  const base = channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || '';
  return row.url ? row.url(base, route, model, channel.other) : `${base}${row.prefix}${route}`;
}

export function openAiHeaders(channel: RuntimeChannel): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (openAiRow(channel.type).auth === 'azure') headers['api-key'] = channel.key;
  else headers.authorization = `Bearer ${channel.key}`;
  if (channel.organization) headers['openai-organization'] = channel.organization;
  return headers;
}

/** OpenAI itself and every row of the compatible table: requests and answers pass through nearly unchanged. */
export const openAiAdapter: ProviderAdapter = {
  chatCall(channel: RuntimeChannel, request: ChatRequest): UpstreamCall {
    const body: ChatRequest = { ...request };
    // Ask for the usage chunk so billing is exact; types that do not understand stream_options reject it.
    if (!channelType(channel.type)?.streamOptions) delete body.stream_options;
    else if (body.stream) body.stream_options = { ...body.stream_options, include_usage: true };
    return {
      method: 'POST',
      url: openAiUrl(channel, '/chat/completions', request.model),
      headers: openAiHeaders(channel),
      body: JSON.stringify(body),
    };
  },
  chatResponse(body: unknown): ChatResponse {
    return body as ChatResponse;
  },
  stream: (_model: string, forwardUsage: boolean) => openAiPassThrough(forwardUsage),
  error: readUpstreamError,
  modelsCall(channel: RuntimeChannel): UpstreamCall {
    return { method: 'GET', url: openAiUrl(channel, '/models'), headers: openAiHeaders(channel) };
  },
  modelsResponse(body: unknown): string[] {
    const data = (body as { data?: Array<{ id?: unknown }> }).data ?? [];
    return data.map((entry) => String(entry.id ?? '')).filter(Boolean);
  },
};
