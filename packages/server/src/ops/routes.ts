import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { EXPOSITION_CONTENT_TYPE } from '../metrics/exposition.js';
import { HEALTH_PATH, METRICS_PATH, READY_PATH } from './paths.js';
import { ReadinessProbe } from './readiness.js';

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Never cached by a proxy between the prober and us; never sniffed into something else. */
const PROBE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/**
 * Whether the Authorization header carries the metrics token. Both sides are hashed first, so the comparison takes
 * the same time whatever the length or the first wrong byte of a guess.
 */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/**
 * `GET /healthz` (the process serves: no dependency is asked), `GET /readyz` (it can serve: database, migrations,
 * Redis) and `GET /metrics` (Prometheus text; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`).
 * Fastify answers HEAD on each as well.
 */
export async function operationsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const probe = new ReadinessProbe(ctx, (check, error) =>
    app.log.warn({ check, err: error }, 'readiness check failed'),
  );
  const token = ctx.config.metricsToken;
  const expected = token === null ? null : digest(token);

  app.get(HEALTH_PATH, (_request, reply) => reply.headers(PROBE_HEADERS).send({ status: 'ok' }));

  // `?strict`: Redis must answer too, for operators who would rather drain a node than run it on its own memory.
  app.get(READY_PATH, async (request, reply) => {
    const { ready, degraded, checks } = await probe.check();
    const strict = Object.hasOwn(request.query as object, 'strict');
    reply.headers(PROBE_HEADERS);
    const failed = Object.entries(checks)
      .filter(([, state]) => state !== 'ok' && state !== 'off')
      .map(([name]) => name);
    if (ready && !(strict && degraded)) {
      return reply.send(degraded ? { status: 'degraded', degraded: failed, checks } : { status: 'ok', checks });
    }
    return reply.code(503).send({ status: 'unavailable', failed, checks });
  });

  app.get(METRICS_PATH, (request, reply) => {
    reply.headers(PROBE_HEADERS);
    if (expected && !bearerMatches(request.headers.authorization, expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('Unauthorized: send the metrics token as "Authorization: Bearer <METRICS_TOKEN>"\n');
    }
    return reply.type(EXPOSITION_CONTENT_TYPE).send(ctx.metrics.render(ctx));
  });
}
