import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { RateLimitConfig } from '../config.js';
import { OPERATIONS_PATHS } from '../ops/paths.js';
import { RelayError } from '../relay/errors.js';
import { BASELINE_HEADERS } from './content-security.js';
import { ApiFailure, languageOf } from './envelope.js';
import { clientIp } from './request-ip.js';
import { looksLikeFile } from './static-web.js';
import { tooManyPagesHtml } from './too-many-pages.js';

/** Which global limit a path falls under; the relay itself is limited per user by the model request limit. */
export type GlobalScope = 'api' | 'web' | null;

// The OpenAI-compatible billing views are management reads in disguise: the family limits them with /api.
const DASHBOARD_PATHS = new Set([
  '/dashboard/billing/subscription',
  '/dashboard/billing/usage',
  '/v1/dashboard/billing/subscription',
  '/v1/dashboard/billing/usage',
]);
const RELAY_PREFIXES = ['/v1/', '/v1beta/', '/pg/', '/mj/', '/suno/', '/dashboard/'];

export function globalScope(url: string): GlobalScope {
  // The relay's own paths come first and leave at once: this runs on every relay request.
  if (url.startsWith('/v1/') && !url.startsWith('/v1/dashboard/')) return null;
  const end = url.indexOf('?');
  let path = end === -1 ? url : url.slice(0, end);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (path === '/api' || path.startsWith('/api/')) return 'api';
  if (DASHBOARD_PATHS.has(path)) return 'api';
  if (path === '/v1' || RELAY_PREFIXES.some((prefix) => path.startsWith(prefix))) return null;
  // Health checks and scrapes come every few seconds from one address: a limit would take the node out of rotation.
  if (OPERATIONS_PATHS.has(path)) return null;
  // Only page loads count against the web limit: a page pulls 20–40 script, style and image files, and counting
  // them locked whole offices out after a few reloads. Files are cheap to serve and cached by the browser.
  if (path.startsWith('/assets/') || looksLikeFile(path)) return null;
  return 'web';
}

export interface GlobalLimits {
  api: RateLimitConfig;
  web: RateLimitConfig;
}

/**
 * The family's per-IP GlobalAPIRateLimit (on /api and the dashboard billing views) and GlobalWebRateLimit (on the
 * console's pages and assets), counted by the same fixed-window limiter as the critical limit (memory, or Redis
 * when configured). Over the limit: 429 with Retry-After, in the shape the caller reads (envelope, OpenAI error,
 * or plain text for a page).
 */
export function globalRateLimitHook(
  limiter: RateLimiter,
  limits: GlobalLimits,
  trustedProxies: string[],
): onRequestHookHandler {
  // Callback style, not async: paths without a limit (the relay) continue synchronously, without a promise.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const scope = globalScope(request.url);
    const limit = scope ? limits[scope] : null;
    if (!scope || !limit?.enabled) return done();
    const ip = clientIp(request, trustedProxies);
    limiter.hit(`global-${scope}:${ip}`, limit.max, limit.windowSeconds).then(
      (allowed) => {
        if (allowed) return done();
        reply.header('Retry-After', String(limit.windowSeconds));
        const params = { max: limit.max, seconds: limit.windowSeconds };
        // The dashboard billing views are read by OpenAI clients: their error shape, not the envelope.
        if (scope === 'api' && !request.url.startsWith('/api')) {
          const words = { code: 'global_rate_limited', params } as const;
          const error = RelayError.worded(429, languageOf(request), words, 'new_api_error', 'rate_limit_exceeded');
          error.retryAfter = limit.windowSeconds;
          return done(error);
        }
        if (scope === 'api') return done(new ApiFailure('global_rate_limited', params, 429, limit.windowSeconds));
        // A page must never go blank: a small page of its own says what happened and when to try again.
        reply
          .code(429)
          .headers(BASELINE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(tooManyPagesHtml(limit.windowSeconds));
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  };
}
