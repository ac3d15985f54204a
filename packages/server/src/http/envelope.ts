import {
  type ApiEnvelope,
  acceptLanguageTags,
  type Language,
  type MessageCode,
  matchLanguage,
  pickLanguage,
  translate,
} from '@gateway/shared';
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

/** The paths of the relay (model APIs, the playground, the dashboard billing views): API clients, not the console. */
export function isRelayPath(url: string): boolean {
  return (
    url.startsWith('/v1/') || url.startsWith('/v1beta/') || url.startsWith('/pg/') || url.startsWith('/dashboard/')
  );
}

/**
 * The task vendors' native routes (Midjourney-Proxy's `/mj/…` and `/mj-fast/mj/…`, Suno's `/suno/…`): API clients
 * too, though their answers have the vendor's shape rather than the relay's.
 */
export function isTaskApiPath(url: string): boolean {
  return url.startsWith('/mj/') || /^\/[^/]+\/mj\//.test(url) || url.startsWith('/suno/');
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The language of relay errors for callers that send no Accept-Language (config RELAY_DEFAULT_LANGUAGE). */
    relayDefaultLanguage?: Language;
  }
}

/**
 * The caller's language: their Accept-Language when they send one; without it, the console's default (zh) on /api
 * and the relay's default (English unless RELAY_DEFAULT_LANGUAGE says otherwise) for API clients (the relay and
 * the task vendors' routes), which, like OpenAI's, send none.
 */
export function languageOf(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  const picked = pickLanguage(header);
  if (!isRelayPath(request.url) && !isTaskApiPath(request.url)) return picked;
  // fetch() in Node and browsers sends `*` unless told otherwise: no preference, like no header at all. A header that
  // names only languages the server has no messages in gets the relay's default too, not the console's.
  const namesOneOfOurs = acceptLanguageTags(header).some((tag) => matchLanguage(tag) !== undefined);
  return namesOneOfOurs ? picked : (request.server.relayDefaultLanguage ?? 'en');
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
