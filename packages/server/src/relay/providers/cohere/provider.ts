import { channelType } from '@gateway/shared';
import type { Provider } from '../../provider.js';
import { sendUpstream } from '../../send.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import { wholeResponse } from '../refusal-in-body.js';
import { fromCohereEmbed, toCohereEmbed } from './embed.js';
import { toCohereRequest } from './request.js';
import { fromCohereRerank, splitReturnDocuments, toCohereRerank, withDocuments } from './rerank.js';
import { cohereError, fromCohereAnswer } from './response.js';
import { cohereToOpenAi } from './stream.js';

const RERANK_PATH = '/v2/rerank';

function cohereBase(channel: RuntimeChannel): string {
  return channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://api.cohere.com';
}

function post(channel: RuntimeChannel, path: string, body: unknown, stream = false): UpstreamCall {
  return {
    method: 'POST',
    url: `${cohereBase(channel)}${path}`,
    headers: {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
      authorization: `Bearer ${channel.key}`,
    },
    body: JSON.stringify(body),
  };
}

/** Cohere's v2 API (type 34): chat with tools, embeddings and rerank, each converted from and to OpenAI's shapes. */
export const cohereProvider: Provider = {
  functions: {
    chat: {
      call: (channel, request) => post(channel, '/v2/chat', toCohereRequest(request), request.stream === true),
      answer: fromCohereAnswer,
      stream: cohereToOpenAi,
    },
    embeddings: {
      call: (channel, body, upstreamModel) => post(channel, '/v2/embed', toCohereEmbed(body.toString(), upstreamModel)),
      answer: fromCohereEmbed,
    },
    rerank: {
      call: (channel, body, upstreamModel) =>
        post(channel, RERANK_PATH, toCohereRerank(body.toString(), upstreamModel)),
      answer: fromCohereRerank,
    },
  },
  error: cohereError,
  models: {
    call: (channel) => ({
      method: 'GET',
      url: `${cohereBase(channel)}/v1/models?page_size=1000`,
      headers: { accept: 'application/json', authorization: `Bearer ${channel.key}` },
    }),
    read: (body) =>
      ((body as { models?: Array<{ name?: unknown }> }).models ?? [])
        .map((model) => String(model.name ?? ''))
        .filter(Boolean),
  },
  /**
   * Plain calls go as they are. A rerank that asked for its documents back: Cohere v2 neither takes the flag nor
   * returns documents, so the flag is taken out of the body and the documents are put into the answer here.
   */
  async open(call, _channel, options) {
    if (!call.url.endsWith(RERANK_PATH) || typeof call.body !== 'string') return sendUpstream(call, options);
    const { body, documents } = splitReturnDocuments(call.body);
    const response = await sendUpstream({ ...call, body }, options);
    if (!documents || response.statusCode !== 200) return response;
    const text = await response.body.text();
    try {
      return wholeResponse(200, JSON.stringify(withDocuments(JSON.parse(text) as Record<string, unknown>, documents)));
    } catch {
      // Not JSON: the conveyor answers it as a bad response.
      return wholeResponse(200, text, String(response.headers['content-type'] ?? 'text/plain'));
    }
  },
};
