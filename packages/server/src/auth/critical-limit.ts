import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiFailure } from '../http/envelope.js';
import { clientIp } from '../http/request-ip.js';

/**
 * The family's "critical" per-IP limit (CRITICAL_RATE_LIMIT per CRITICAL_RATE_LIMIT_DURATION) for routes that
 * guess or spend: sign-in, registration, redeeming codes, payments.
 */
export function criticalLimit(ctx: AppContext): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest) => {
    const limit = ctx.config.criticalRateLimit;
    if (!limit.enabled) return;
    const key = `critical:${clientIp(request, ctx.config.trustedProxies)}`;
    if (!(await ctx.limiter.hit(key, limit.max, limit.windowSeconds)))
      throw new ApiFailure('too_many_requests', undefined, 429, limit.windowSeconds);
  };
}
