import type { UpstreamError } from '../../types.js';
import { readUpstreamError } from '../errors.js';

/**
 * A channel-key problem (unreadable key, token refused) as Google's own error body, so it reads like any other
 * Vertex refusal: the admin's message names what is wrong with the key and never quotes it.
 */
export function keyRefusal(problem: string): string {
  return JSON.stringify({ error: { code: 401, message: problem, status: 'UNAUTHENTICATED' } });
}

/**
 * Vertex errors: Google's `{error:{code,message,status}}` (the rpc status name becomes the type), Anthropic's
 * `{type:'error',error:{type,message}}` from the Claude publisher, and the one-element array Google wraps a
 * streamed request's error in when the answer is a JSON array.
 */
export function vertexError(status: number, text: string): UpstreamError {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    try {
      const [first] = JSON.parse(trimmed) as unknown[];
      if (first && typeof first === 'object') return readUpstreamError(status, JSON.stringify(first));
    } catch {
      // not JSON: read as text below
    }
  }
  return readUpstreamError(status, text);
}
