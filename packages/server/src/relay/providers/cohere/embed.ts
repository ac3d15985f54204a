import { ConversionError } from '../../formats/openai-chat/conversion-error.js';
import { usageOf } from '../text-chat.js';
import type { CohereMeta } from './wire.js';

// OpenAI's /v1/embeddings ↔ Cohere's /v2/embed.

interface OpenAiEmbeddingsBody {
  model?: string;
  input?: unknown;
  encoding_format?: string;
  dimensions?: number;
  /** Cohere's own fields, for clients that know they talk to Cohere. */
  input_type?: string;
  truncate?: string;
}

function textsOf(input: unknown): string[] {
  const list = Array.isArray(input) ? input : [input];
  return list.map((item) => {
    if (typeof item === 'string') return item;
    // Token-id arrays are OpenAI's own tokenizer's numbers: they mean nothing to Cohere's models.
    throw new ConversionError('token ids as embedding input');
  });
}

/**
 * The Cohere embed body for an OpenAI embeddings request. Cohere's v3+ models need to know what the texts are for:
 * `search_document` (texts stored for search, the common use) unless the client says otherwise in `input_type`.
 * OpenAI's `encoding_format: base64` (the OpenAI SDK's default) asks Cohere for base64, the same little-endian
 * float32 bytes; `dimensions` is Cohere's `output_dimension`.
 */
export function toCohereEmbed(text: string, model: string): Record<string, unknown> {
  const request = JSON.parse(text) as OpenAiEmbeddingsBody;
  const body: Record<string, unknown> = {
    model,
    texts: textsOf(request.input),
    input_type: request.input_type || 'search_document',
    embedding_types: [request.encoding_format === 'base64' ? 'base64' : 'float'],
  };
  if (typeof request.dimensions === 'number') body.output_dimension = request.dimensions;
  if (request.truncate) body.truncate = request.truncate;
  return body;
}

interface CohereEmbedAnswer {
  embeddings?: { float?: number[][]; base64?: string[] };
  meta?: CohereMeta;
}

/** Cohere's embeddings (by type) as OpenAI's list, usage from the billed input tokens. */
export function fromCohereEmbed(json: Record<string, unknown>, model: string): Record<string, unknown> {
  const answer = json as CohereEmbedAnswer;
  const vectors: Array<number[] | string> = answer.embeddings?.base64 ?? answer.embeddings?.float ?? [];
  const billed = answer.meta?.billed_units?.input_tokens ?? answer.meta?.tokens?.input_tokens;
  const converted: Record<string, unknown> = {
    object: 'list',
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    model,
  };
  if (billed !== undefined) {
    const { prompt_tokens, total_tokens } = usageOf(billed, 0);
    converted.usage = { prompt_tokens, total_tokens };
  }
  return converted;
}
