import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { isGuarded } from '../auth/guard.js';
import type { OptionsStore } from '../cache/options-store.js';
import type { Config } from '../config.js';
import { ApiFailure } from './envelope.js';

/** Management routes (signed in): big enough for a channel with thousands of keys or every model's ratio at once. */
export const MANAGEMENT_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * Routes whose body is a form by nature: payment gateways notify with form posts. Everything else under /api reads
 * JSON, and a form or text body there can only come from another site's form (which needs no CORS approval).
 */
const FORM_ROUTES = new Set([
  '/api/user/epay/notify',
  '/api/user/epay/return',
  '/api/subscription/epay/notify',
  '/api/subscription/epay/return',
]);
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const CHANGES_STATE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every route gets the body limit of its class, checked by Fastify while the body arrives (413 before it is read in
 * full): relay routes MAX_REQUEST_BODY_MB, signed-in management routes 4 MiB, anonymous ones (sign-in,
 * registration, password reset, payment callbacks…) ANONYMOUS_REQUEST_BODY_LIMIT_KB. Registered before the routes.
 */
export function applyBodyLimits(app: FastifyInstance, limits: Config['bodyLimits']): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.bodyLimit !== undefined) return;
    if (!route.url.startsWith('/api/')) route.bodyLimit = limits.relayBytes;
    else route.bodyLimit = isGuarded(route.preHandler) ? MANAGEMENT_BODY_LIMIT : limits.anonymousBytes;
  });
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** Whether a state-changing /api request comes from another site (a page elsewhere posting with our cookie). */
export function isCrossSite(request: FastifyRequest, options: OptionsStore): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') return true;
  const origin = request.headers.origin;
  if (!origin || site === 'same-origin') return false;
  const from = hostOf(origin);
  if (from === null) return true;
  if (from === request.headers.host) return false;
  const server = options.get('ServerAddress').trim();
  return !server || hostOf(server) !== from;
}

/**
 * Refuses, before the body is read, what another site could make a browser send: a state change under /api from a
 * foreign Origin (or `Sec-Fetch-Site: cross-site`) with the session cookie or to sign in, and form or text bodies
 * outside the routes that take forms. Scripts are untouched: they send no Origin, or an access token.
 */
export function crossSiteGuard(options: OptionsStore) {
  return async (request: FastifyRequest) => {
    if (!CHANGES_STATE.has(request.method) || !request.url.startsWith('/api/')) return;
    const path = request.url.split('?')[0]!;
    if (FORM_ROUTES.has(path)) return;
    if (!request.headers.authorization && isCrossSite(request, options)) {
      throw new ApiFailure('cross_site_refused', undefined, 403);
    }
    const type = (request.headers['content-type'] ?? '').toLowerCase();
    if (FORM_TYPES.some((form) => type.startsWith(form))) {
      throw new ApiFailure('form_body_refused', undefined, 415);
    }
  };
}
