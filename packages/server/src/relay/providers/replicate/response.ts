import type { ChatResponse, UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';
import { textCompletion, usageOf } from '../text-chat.js';

/** A prediction as Replicate reports it (the create answer, `urls.get`). */
export interface Prediction {
  id?: string;
  status?: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | string;
  output?: unknown;
  error?: unknown;
  metrics?: { input_token_count?: number; output_token_count?: number; predict_time?: number };
  urls?: { get?: string; cancel?: string; stream?: string };
}

export const FINISHED = new Set(['succeeded', 'failed', 'canceled']);

export function predictionUsage(metrics: Prediction['metrics']) {
  if (metrics?.input_token_count === undefined && metrics?.output_token_count === undefined) return null;
  return usageOf(metrics.input_token_count ?? 0, metrics.output_token_count ?? 0);
}

/** A language model's output is a list of text pieces (the tokens as they were streamed), or one text. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((piece) => (typeof piece === 'string' ? piece : '')).join('');
  return '';
}

export function fromPrediction(json: Record<string, unknown>, model: string): ChatResponse {
  const prediction = json as Prediction;
  return textCompletion({
    id: `chatcmpl-${prediction.id ?? Date.now()}`,
    model,
    content: outputText(prediction.output),
    finishReason: 'stop',
    usage: predictionUsage(prediction.metrics),
  });
}

/** Replicate's errors are problem details: `{title, detail, status}`. */
export function replicateError(status: number, text: string): UpstreamError {
  try {
    const body = JSON.parse(text) as { title?: unknown; detail?: unknown };
    if (typeof body.detail === 'string') {
      const title = typeof body.title === 'string' ? body.title : null;
      return { status, message: body.detail, type: 'replicate_error', code: title };
    }
  } catch {
    // another shape: read below
  }
  return readUpstreamError(status, text);
}
