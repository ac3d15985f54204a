import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorFormat, RelayError, type RelayWords } from '../relay/errors.js';
import { isRelayPath, isTaskApiPath, languageOf } from './envelope.js';

/**
 * What the HTTP framework itself refuses on a relay route (unparsable JSON, a content type no parser takes, an
 * empty JSON body, a bad Content-Length …), as a relay error in the caller's language: never Fastify's English
 * sentence. Returns null for errors that are not the framework's refusal of the request.
 */
export function frameworkRefusal(error: unknown, request: FastifyRequest): RelayError | null {
  const code = (error as { code?: unknown }).code;
  const status = (error as { statusCode?: unknown }).statusCode;
  const lang = languageOf(request);
  const refuse = (httpStatus: number, words: RelayWords, errorCode: string) =>
    RelayError.worded(httpStatus, lang, words, 'invalid_request_error', errorCode);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const type =
      String(request.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() || '-';
    return refuse(415, { code: 'relay_content_type_unsupported', params: { type } }, 'unsupported_content_type');
  }
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return refuse(400, { code: 'relay_body_empty' }, 'invalid_json');
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && status === 400)) {
    return refuse(400, { code: 'relay_body_unparsable' }, 'invalid_json');
  }
  if (typeof code === 'string' && code.startsWith('FST_') && typeof status === 'number' && status < 500) {
    return refuse(status, { code: 'relay_bad_request', params: { status } }, 'invalid_request');
  }
  return null;
}

/**
 * The relay's route table as patterns, so a path that exists under other methods is answered 405 with Allow
 * instead of 404. Fastify answers both with its not-found handler; this tells them apart.
 */
export function relayRouteTable(app: FastifyInstance): (path: string) => string[] {
  const routes: Array<{ pattern: RegExp; methods: string[] }> = [];
  app.addHook('onRoute', (route) => {
    if (!isRelayPath(route.url) && !isTaskApiPath(route.url)) return;
    const source = route.url
      .split('/')
      .map((part) =>
        part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/');
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    routes.push({ pattern: new RegExp(`^${source}/?$`), methods });
  });
  return (path) => [...new Set(routes.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods))];
}

/** A relay path no route answers: 405 (with Allow) when other methods serve it, else 404, in the route's shape. */
export function answerRelayNotFound(
  request: FastifyRequest,
  reply: FastifyReply,
  allowedMethods: (path: string) => string[],
): FastifyReply {
  const path = request.url.split('?')[0] ?? '/';
  const lang = languageOf(request);
  const allowed = allowedMethods(path).filter((method) => method !== 'HEAD');
  const error =
    allowed.length > 0
      ? RelayError.worded(
          405,
          lang,
          { code: 'relay_method_not_allowed', params: { method: request.method } },
          'invalid_request_error',
          'method_not_allowed',
        )
      : RelayError.worded(
          404,
          lang,
          { code: 'relay_route_not_found', params: { method: request.method, path } },
          'invalid_request_error',
          'not_found',
        );
  if (allowed.length > 0) reply.header('Allow', allowed.join(', '));
  return reply.code(error.status).send(error.body(String(request.id), errorFormat(path)));
}
