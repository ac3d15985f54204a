import type { UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';

/**
 * Jina's API is FastAPI: refusals come as `{"detail": "…"}`, and a request that fails validation (422) as
 * `{"detail": [{"loc": […], "msg": "…"}]}`. Other shapes are read like OpenAI's.
 */
export function jinaError(status: number, text: string): UpstreamError {
  try {
    const { detail } = JSON.parse(text) as { detail?: unknown };
    if (typeof detail === 'string' && detail) return { status, message: detail, type: 'jina_error', code: null };
    if (Array.isArray(detail) && detail.length) {
      const message = detail
        .map((item: { loc?: unknown[]; msg?: unknown }) =>
          [Array.isArray(item.loc) ? item.loc.join('.') : '', String(item.msg ?? '')].filter(Boolean).join(': '),
        )
        .join('; ');
      return { status, message, type: 'invalid_request_error', code: null };
    }
  } catch {
    // not JSON: read below
  }
  return readUpstreamError(status, text);
}
