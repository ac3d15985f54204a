import { answerJson, type Exchange } from './exchange.js';
import type { ErrorReply, ErrorSpec, Route } from './route.js';

export const OLLAMA_MODELS = [
  { name: 'llama3:latest', size: 4661224676, family: 'llama', parameter_size: '8.0B' },
  { name: 'qwen2.5:7b', size: 4683087332, family: 'qwen2', parameter_size: '7.6B' },
] as const;

/** Ollama's errors are a bare `{"error": "…"}`. */
export function ollamaError(spec: ErrorSpec): ErrorReply {
  return { status: spec.status, body: { error: spec.message ?? `upstream failed with status ${spec.status}` } };
}

/** `GET /api/tags`: the local model list (no auth: Ollama has none; its chat is served by the OpenAI route). */
async function tags(ex: Exchange): Promise<void> {
  await answerJson(ex, {
    models: OLLAMA_MODELS.map((m, i) => ({
      name: m.name,
      model: m.name,
      modified_at: '2025-01-01T00:00:00.000000000Z',
      size: m.size,
      digest: `${String(i + 1).repeat(64)}`,
      details: {
        parent_model: '',
        format: 'gguf',
        family: m.family,
        families: [m.family],
        parameter_size: m.parameter_size,
        quantization_level: 'Q4_K_M',
      },
    })),
  });
}

export const ollamaRoutes: Route[] = [
  {
    key: 'ollama.tags',
    method: 'GET',
    match: (path) => (path === '/api/tags' ? {} : null),
    error: ollamaError,
    handle: tags,
  },
];
