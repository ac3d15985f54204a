import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/outage.js';
import { errorFormat, RelayError } from '../relay/errors.js';
import { languageOf, messageFor } from './envelope.js';

/**
 * A request the database could not serve (db/outage.ts): a 503 that says so and when to come back, never a 500
 * "internal error" that sends people looking for a bug. The console reads the `/api` envelope; everything else is
 * a relay or task route, whose clients read their API's error shape. The driver's words stay in the server log: they
 * may name hosts and users.
 */
export function answerDatabaseUnavailable(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  // A warning, not an error: the cause is outside the process, and /readyz already reports it.
  request.log.warn({ err: error, url: request.url, reqId: request.id }, 'database unavailable');
  reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  if (request.url.startsWith('/api/')) {
    return reply.code(503).send({ success: false, message: messageFor(request, 'database_unavailable') });
  }
  const relay = databaseUnavailableError(languageOf(request));
  return reply.code(503).send(relay.body(String(request.id), errorFormat(request.url)));
}

/** The relay's form of it, for routes that answer errors in their own shape (task routes). */
export function databaseUnavailableError(lang: Language): RelayError {
  const relay = RelayError.worded(503, lang, { code: 'database_unavailable' }, 'new_api_error', 'database_unavailable');
  relay.retryAfter = DATABASE_RETRY_AFTER_SECONDS;
  return relay;
}
