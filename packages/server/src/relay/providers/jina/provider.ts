import type { Provider, RouteFunction } from '../../provider.js';
import { openAiHeaders, openAiUrl } from '../openai/url.js';
import { toJinaEmbeddings } from './embeddings.js';
import { jinaError } from './error.js';

/** A Jina route: its body (after `adapt`) goes to base + /v1 + path, and its OpenAI-shaped answer comes back as it is. */
function route(path: string, adapt: (body: string) => string = (body) => body): RouteFunction {
  return {
    call: (channel, body, upstreamModel) => ({
      method: 'POST',
      url: openAiUrl(channel, path, upstreamModel),
      headers: openAiHeaders(channel),
      body: adapt(body.toString()),
    }),
  };
}

/**
 * Jina AI (type 38): embeddings and rerank. Both answer in the shapes the gateway's endpoints read (OpenAI's
 * embeddings list with `usage.prompt_tokens`; rerank `results` with `usage.total_tokens`), so the answers and their
 * usage pass through untouched. Not an OpenAI-compatible row of the channel table: Jina serves no chat, images or
 * audio, names the embeddings' output format differently (embeddings.ts) and words its errors FastAPI's way
 * (error.ts).
 */
export const jinaProvider: Provider = {
  functions: {
    embeddings: route('/embeddings', toJinaEmbeddings),
    rerank: route('/rerank'),
  },
  error: jinaError,
};
