import { channelType } from '@gateway/shared';
import { openAiPassThrough } from '../../formats/openai-chat/stream.js';
import { openAiSuffixDialect } from '../../model-suffix.js';
import type { ChatFunction, Provider, RouteFunction } from '../../provider.js';
import type { ChatRequest, ChatResponse, RuntimeChannel, UpstreamCall } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { openAiHeaders, openAiQuirks, openAiUrl } from './url.js';

const chat: ChatFunction = {
  call(channel: RuntimeChannel, request: ChatRequest): UpstreamCall {
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
  answer: (json) => json as unknown as ChatResponse,
  stream: (_model, forwardUsage) => openAiPassThrough(forwardUsage),
};

/** An OpenAI route whose body goes as the client sent it (model replaced by the endpoint). */
function route(path: string): RouteFunction {
  return {
    call(channel, body, upstreamModel, contentType) {
      return {
        method: 'POST',
        url: openAiUrl(channel, path, upstreamModel),
        headers: { ...openAiHeaders(channel), 'content-type': contentType },
        body,
      };
    },
  };
}

/** OpenAI itself and the rows that serve the Responses API too (`openAi.responses` in the channel table). */
export const openAiProvider: Provider = {
  suffixDialect: openAiSuffixDialect,
  functions: {
    chat,
    completions: route('/completions'),
    embeddings: route('/embeddings'),
    moderations: route('/moderations'),
    images: route('/images/generations'),
    rerank: route('/rerank'),
    responses: route('/responses'),
    compact: route('/responses/compact'),
    responseResource(channel, method, path) {
      // Azure and full-URL rows name the deployment in the URL, which a stored response's id does not carry.
      if (openAiQuirks(channel.type).urlShape) return null;
      return { method, url: openAiUrl(channel, `/responses${path}`), headers: openAiHeaders(channel) };
    },
    speech: route('/audio/speech'),
    transcriptions: route('/audio/transcriptions'),
    translations: route('/audio/translations'),
  },
  error: readUpstreamError,
  models: {
    call: (channel) => ({ method: 'GET', url: openAiUrl(channel, '/models'), headers: openAiHeaders(channel) }),
    read(body) {
      const data = (body as { data?: Array<{ id?: unknown }> }).data ?? [];
      return data.map((entry) => String(entry.id ?? '')).filter(Boolean);
    },
  },
};

/** Every other OpenAI-compatible row: the same functions but Responses, which reaches them through chat. */
export const openAiCompatibleProvider: Provider = {
  ...openAiProvider,
  functions: { ...openAiProvider.functions, responses: undefined, compact: undefined, responseResource: undefined },
};
