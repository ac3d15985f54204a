import type { UpstreamError } from '../types.js';

/**
 * Reads the common error body shapes: OpenAI `{error:{message,type,code}}`, Claude `{type:'error',error:{type,message}}`,
 * Gemini `{error:{code,message,status}}`, and plain text.
 */
export function readUpstreamError(status: number, text: string): UpstreamError {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
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
