import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../admission/authenticate.js';
import { RelayError } from '../errors.js';

// One lookup answers at most this many ids (the family's TASK_QUERY_LIMIT default), so a huge list cannot stall it.
const MAX_LOOKUP_IDS = 1000;

/**
 * How every Midjourney and Suno route starts: the caller's language, the request id echoed in the family's header
 * (so a refusal can be traced), then the key checked.
 */
export async function openTaskRequest(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const lang = languageOf(request);
  const requestId = String(request.id);
  reply.header('X-Oneapi-Request-Id', requestId);
  const caller = await authenticateRelay(ctx, request, lang);
  return { lang, requestId, caller };
}

/** Where links to this gateway should point (image and video proxies): ServerAddress, else the address called. */
export function gatewayBase(ctx: AppContext, request: FastifyRequest): string {
  const configured = ctx.options.get('ServerAddress');
  if (configured) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/**
 * The `ids` of a `{ids:[…]}` lookup body, capped at the lookup limit: none when the field is absent, a RelayError
 * (for the route to answer in its own shape) when it is not a list of strings.
 */
export function lookupIds(body: unknown, lang: Language): string[] | RelayError {
  const ids = (body as { ids?: unknown } | null)?.ids;
  if (ids === undefined) return [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    return RelayError.of(
      400,
      lang,
      'relay_body_invalid',
      { reason: 'ids must be a list of strings' },
      'invalid_request',
    );
  }
  return (ids as string[]).slice(0, MAX_LOOKUP_IDS);
}
