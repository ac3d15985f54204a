import type { UpstreamError } from '../types.js';

/**
 * Reads the common error body shapes: OpenAI `{error:{message,type,code}}`, Claude `{type:'error',error:{type,message}}`,
 * Gemini `{error:{code,message,status}}`, `{error:"…"}`, and plain text (its message is the text itself).
 */
export function readUpstreamError(status: number, text: string): UpstreamError {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    // Ollama and some OpenAI-compatible servers answer `{"error": "model 'x' not found"}`.
    if (typeof body.error === 'string' && body.error) {
      return { status, message: body.error, type: 'upstream_error', code: null };
    }
    const error = (body.error ?? body) as Record<string, unknown>;
    if (typeof error === 'object' && error !== null) {
      const message = typeof error.message === 'string' ? error.message : text.slice(0, 500);
      const type = String(error.type ?? error.status ?? 'upstream_error');
      const code = error.code === undefined || error.code === null ? null : String(error.code);
      return { status, message, type, code };
    }
  } catch {
    // not JSON: fall through
  }
  return { status, message: text.trim().slice(0, 500) || `HTTP ${status}`, type: 'upstream_error', code: null };
}
