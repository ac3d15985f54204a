import { type ApiEnvelope, type Language, type MessageCode, pickLanguage, translate } from '@gateway/shared';
import type { FastifyRequest } from 'fastify';

/**
 * A business failure raised anywhere in a handler. The error handler turns it into `{success:false, message}`
 * in the caller's language; `status` stays 200 by family convention except for auth (401/403) and limits (429).
 */
export class ApiFailure extends Error {
  constructor(
    readonly code: MessageCode,
    readonly params?: Record<string, string | number>,
    readonly status = 200,
    /** Seconds until a refused caller may try again (a 429 answer's Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(code);
  }
}

export function languageOf(request: FastifyRequest): Language {
  return pickLanguage(request.headers['accept-language']);
}

export function messageFor(
  request: FastifyRequest,
  code: MessageCode,
  params?: Record<string, string | number>,
): string {
  return translate(code, languageOf(request), params);
}

export function ok<T>(data?: T, message = ''): ApiEnvelope<T> {
  return data === undefined ? { success: true, message } : { success: true, message, data };
}
