import type { RouteFunction } from '../../provider.js';
import { publisherUrl, vertexHeaders } from './location.js';

interface Prediction {
  embeddings?: { values?: number[]; statistics?: { token_count?: number } };
}

/**
 * OpenAI embeddings → a text-embedding model's `:predict` (one instance per input; `dimensions` as
 * `outputDimensionality`), and its predictions back in the OpenAI shape, the token counts summed as the usage.
 */
export const vertexEmbeddings: RouteFunction = {
  call(channel, body, upstreamModel) {
    const request = JSON.parse(body.toString()) as { input?: unknown; dimensions?: unknown };
    const inputs = Array.isArray(request.input) ? request.input.map(String) : [String(request.input ?? '')];
    const payload: Record<string, unknown> = { instances: inputs.map((content) => ({ content })) };
    if (typeof request.dimensions === 'number') payload.parameters = { outputDimensionality: request.dimensions };
    return {
      method: 'POST',
      url: publisherUrl(channel, 'google', upstreamModel, 'predict'),
      headers: vertexHeaders(channel),
      body: JSON.stringify(payload),
    };
  },
  answer(json, model) {
    const predictions = (json.predictions ?? []) as Prediction[];
    const tokens = predictions.reduce((sum, item) => sum + (item.embeddings?.statistics?.token_count ?? 0), 0);
    return {
      object: 'list',
      data: predictions.map((item, index) => ({
        object: 'embedding',
        index,
        embedding: item.embeddings?.values ?? [],
      })),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  },
};
