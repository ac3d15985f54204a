import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../admission/authenticate.js';
import { Cancellation } from '../cancellation.js';
import { RelayError } from '../errors.js';
import { providerFor } from '../providers/registry.js';
import { sendUpstream, type UpstreamResponse } from '../send.js';
import { unreachableUpstream, upstreamRefusal } from '../upstream-failure.js';

type Method = 'GET' | 'POST' | 'DELETE';

/**
 * A stored response's own routes, carried to the channel (and key) that created it (affinity/response-owners.ts):
 * `GET`/`DELETE /v1/responses/{id}`, `POST /v1/responses/{id}/cancel`, `GET /v1/responses/{id}/input_items`. They
 * are not model calls: nothing is reserved or billed. An id the caller did not create here is a 404, whoever
 * created it. The query string (`stream`, `include`, `after`, `limit`, `order`) goes along; a streamed retrieve is
 * passed through as it comes.
 */
export function responseResourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const route = (method: Method, tail: string) => (request: FastifyRequest, reply: FastifyReply) =>
    relayToCreator(ctx, request, reply, method, tail);
  app.get('/v1/responses/:id', route('GET', ''));
  app.delete('/v1/responses/:id', route('DELETE', ''));
  app.post('/v1/responses/:id/cancel', route('POST', '/cancel'));
  app.get('/v1/responses/:id/input_items', route('GET', '/input_items'));
}

async function relayToCreator(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  method: Method,
  tail: string,
): Promise<FastifyReply> {
  const lang = languageOf(request);
  const caller = await authenticateRelay(ctx, request, lang);
  const { id } = request.params as { id: string };
  const found = await ctx.responseOwners.find(caller.user.id, id);
  const channel = found ? ctx.channelCache.get(found.channelId) : undefined;
  if (!found || !channel) throw RelayError.of(404, lang, 'relay_response_not_found', { id }, 'invalid_request_error');
  const keyed = { ...channel, key: channel.keys[found.keyIndex] ?? channel.key };
  const queryAt = request.url.indexOf('?');
  const query = queryAt >= 0 ? request.url.slice(queryAt) : '';
  const provider = providerFor(channel.type);
  const call = provider?.functions.responseResource?.(keyed, method, `/${encodeURIComponent(id)}${tail}${query}`);
  if (!provider || !call) {
    throw RelayError.of(400, lang, 'relay_response_resource_unsupported', undefined, 'invalid_request_error');
  }
  const cancellation = new Cancellation();
  const onClose = () => {
    if (!reply.raw.writableFinished) cancellation.abort();
  };
  reply.raw.on('close', onClose);
  let response: UpstreamResponse;
  try {
    response = await sendUpstream(call, {
      timeoutMs: ctx.config.relayTimeoutMs,
      cancellation,
      maxAnswerBytes: ctx.config.answerLimits.wholeBytes,
    });
  } catch (error) {
    reply.raw.off('close', onClose);
    throw unreachableUpstream(error, keyed, lang);
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    reply.raw.off('close', onClose);
    const text = await response.body.text().catch(() => '');
    throw upstreamRefusal(provider.error(response.statusCode, text), { ...response, text }, keyed, lang);
  }
  if (method === 'DELETE') ctx.responseOwners.forget(caller.user.id, id, channel.id);
  reply.code(response.statusCode);
  reply.header('content-type', String(response.headers['content-type'] ?? 'application/json'));
  reply.raw.once('finish', () => reply.raw.off('close', onClose));
  return reply.send(Readable.from(response.body, { objectMode: false }));
}
