import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import { auditRoutes } from './api/audit.js';
import { cardPaymentRoutes } from './api/card-payments.js';
import { catalogueRoutes } from './api/catalogue.js';
import { channelRoutes } from './api/channel/index.js';
import { checkinRoutes } from './api/checkin.js';
import { contentRoutes } from './api/content.js';
import { customOAuthBindingRoutes } from './api/custom-oauth-bindings.js';
import { dataRoutes } from './api/data.js';
import { emailBindRoutes } from './api/email-bind.js';
import { logRoutes } from './api/log.js';
import { metricsSummaryRoutes } from './api/metrics-summary.js';
import { midjourneyRoutes } from './api/midjourney.js';
import { oauthRoutes } from './api/oauth/index.js';
import { optionRoutes } from './api/option.js';
import { passkeyRoutes } from './api/passkey.js';
import { passwordResetRoutes } from './api/password-reset.js';
import { paymentRoutes } from './api/payment.js';
import { pricingRoutes } from './api/pricing.js';
import { ratioSyncRoutes } from './api/ratio-sync.js';
import { redemptionRoutes } from './api/redemption.js';
import { setupRoutes } from './api/setup.js';
import { statusRoutes } from './api/status.js';
import { subscriptionRoutes } from './api/subscription.js';
import { taskRoutes } from './api/task.js';
import { tokenRoutes } from './api/token.js';
import { twoFactorRoutes } from './api/two-factor.js';
import { userAdminRoutes } from './api/user-admin.js';
import { userPersonalRoutes } from './api/user-personal.js';
import { userRegisterRoutes } from './api/user-register.js';
import { userSelfRoutes } from './api/user-self.js';
import { userSessionRoutes } from './api/user-session.js';
import { verificationRoutes } from './api/verification.js';
import { walletRoutes } from './api/wallet.js';
import { finishSetup } from './auth/setup-token.js';
import type { AppContext } from './context.js';
import { isDatabaseUnavailable } from './db/outage.js';
import { capConnectionsPerAddress } from './http/connection-cap.js';
import { BASELINE_HEADERS } from './http/content-security.js';
import { answerDatabaseUnavailable } from './http/database-unavailable.js';
import { ApiFailure, isRelayPath, languageOf, messageFor } from './http/envelope.js';
import { globalRateLimitHook } from './http/global-rate-limit.js';
import { frameworkRefusal, relayRouteTable } from './http/relay-refusals.js';
import { applyBodyLimits, crossSiteGuard } from './http/request-guards.js';
import { serverTimeoutOptions } from './http/server-limits.js';
import { serveWeb } from './http/static-web.js';
import { operationsRoutes } from './ops/routes.js';
import { errorFormat, RelayError, type RelayWords } from './relay/errors.js';
import { relayRoutes } from './relay/router.js';

// Paths that must work before first-run setup: the console needs them to show the setup page.
const ALLOWED_BEFORE_SETUP = new Set([
  '/api/status',
  '/api/setup',
  '/api/notice',
  '/api/about',
  '/api/home_page_content',
]);

/** When a 429 has no better figure (an upstream that gave none). */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

function readableSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/** Body errors answered 413 or 400 in the route's shape, never a 500 or an error-level log line. */
function refusedBody(
  error: unknown,
  request: FastifyRequest,
): { status: number; code: 'body_too_large' | 'body_too_deep'; params?: Record<string, string> } | null {
  if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = request.routeOptions.bodyLimit ?? 0;
    return { status: 413, code: 'body_too_large', params: { limit: readableSize(limit) } };
  }
  if (error instanceof RangeError && /call stack/i.test(error.message)) return { status: 400, code: 'body_too_deep' };
  return null;
}

function refuseRouteSchemas(): never {
  throw new Error('route JSON schemas are not used in this server: validate the body with zod (http/validation.ts)');
}

/**
 * Request ids: a random prefix per process (unique across nodes and restarts) and a counter, so ids sort by
 * arrival on one node and cost no random bytes or string replacement per request.
 */
const REQUEST_ID_PREFIX = `${Date.now().toString(36)}${crypto.randomUUID().slice(0, 8)}`;
let requestCounter = 0;
const nextRequestId = () => `${REQUEST_ID_PREFIX}${(++requestCounter).toString(36).padStart(6, '0')}`;

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      ctx.config.logLevel === 'silent'
        ? false
        : {
            level: ctx.config.logLevel,
            // Cookies and Authorization carry credentials: keep them out of every log line.
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
          },
    bodyLimit: 128 * 1024 * 1024,
    // A client that sends part of a request and then nothing, or idles on a connection, is cut off in bounded time.
    ...serverTimeoutOptions(ctx.config.serverLimits),
    // The family's console and scripts call both `/api/log/self` and `/api/channel/1/`.
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: false,
    // Per-request access lines would cost the relay more than the request itself; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: nextRequestId,
    // A pino child logger per request cost a tenth of the relay's CPU in the benchmark; error lines name the
    // request id and URL explicitly instead.
    childLoggerFactory: (logger) => logger,
    // Bodies are validated with zod (http/validation.ts), never with route JSON schemas, so Fastify's default
    // compilers (Ajv and fast-json-stringify: about 8 MiB of resident memory) are never loaded. A route that
    // declares a schema fails at start instead of silently going unvalidated.
    schemaController: { compilersFactory: { buildValidator: refuseRouteSchemas, buildSerializer: refuseRouteSchemas } },
  });

  app.decorate('relayDefaultLanguage', ctx.config.relayDefaultLanguage);
  capConnectionsPerAddress(app.server, ctx.config.serverLimits.maxConnectionsPerIp, ctx.config.trustedProxies);
  // Before any route is added: each route gets its class's body limit.
  applyBodyLimits(app, ctx.config.bodyLimits);
  await app.register(fastifyCookie);
  // Payment gateways notify with form posts.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  // Per-IP limits first: cheap, and they protect everything behind them (the relay is limited per user instead).
  app.addHook(
    'onRequest',
    globalRateLimitHook(
      ctx.limiter,
      { api: ctx.config.globalApiRateLimit, web: ctx.config.globalWebRateLimit },
      ctx.config.trustedProxies,
    ),
  );
  app.addHook('onRequest', crossSiteGuard(ctx.options));
  app.addHook('onRequest', async (request, reply) => {
    if (isRelayPath(request.url)) {
      // Answers are JSON or event streams: never to be sniffed into something a browser would run.
      reply.header('x-content-type-options', 'nosniff');
      reply.header('X-Oneapi-Request-Id', String(request.id));
      return;
    }
    if (!request.url.startsWith('/api/')) return;
    reply.headers(BASELINE_HEADERS);
    reply.header('Cache-Control', 'no-store');
    const path = request.url.split('?')[0]!;
    // Another node may have completed setup since we started: ask the database until the answer is yes.
    if (!ctx.setup.done && (await ctx.repos.setups.isDone())) finishSetup(ctx.setup);
    if (!ctx.setup.done && !ALLOWED_BEFORE_SETUP.has(path)) {
      return reply.send({
        success: false,
        message: messageFor(request, 'setup_required'),
        data: { setup_required: true },
      });
    }
  });

  app.setErrorHandler((error, request, reply) => {
    // A body over its route's limit, or nested deep enough to exhaust a parser's stack, is the caller's mistake.
    const refused = refusedBody(error, request);
    if (refused) {
      const message = messageFor(request, refused.code, refused.params);
      if (!isRelayPath(request.url)) return reply.code(refused.status).send({ success: false, message });
      const words = { code: refused.code, params: refused.params };
      const relay = RelayError.worded(
        refused.status,
        languageOf(request),
        words,
        'invalid_request_error',
        refused.code,
      );
      return reply.code(refused.status).send(relay.body(String(request.id), errorFormat(request.url)));
    }
    if (isDatabaseUnavailable(error)) return answerDatabaseUnavailable(error, request, reply);
    // Every 429 says when to come back.
    if (
      (error as { status?: number; statusCode?: number }).status === 429 ||
      (error as { statusCode?: number }).statusCode === 429
    ) {
      reply.header('Retry-After', String((error as { retryAfter?: number }).retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS));
    }
    if (error instanceof RelayError)
      return reply.code(error.status).send(error.body(String(request.id), errorFormat(request.url)));
    if (isRelayPath(request.url) && error instanceof ApiFailure) {
      // The playground's session guard speaks the envelope; relay clients read the OpenAI shape.
      const relay = RelayError.worded(error.status === 200 ? 400 : error.status, languageOf(request), {
        code: error.code,
        params: error.params,
      });
      return reply.code(relay.status).send(relay.body(String(request.id), errorFormat(request.url)));
    }
    const framework = isRelayPath(request.url) ? frameworkRefusal(error, request) : null;
    if (framework)
      return reply.code(framework.status).send(framework.body(String(request.id), errorFormat(request.url)));
    if (isRelayPath(request.url)) {
      // Clients of the relay (OpenAI SDKs) expect the OpenAI error shape for everything, bad JSON included.
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      // Never a library's English sentence: the status said in the caller's language.
      const words: RelayWords =
        status < 500 ? { code: 'relay_bad_request', params: { status } } : { code: 'internal_error' };
      if (status >= 500) request.log.error({ err: error, url: request.url, reqId: request.id }, 'relay error');
      const type = status < 500 ? 'invalid_request_error' : 'new_api_error';
      const relay = RelayError.worded(status, languageOf(request), words, type);
      return reply.code(status).send(relay.body(String(request.id), errorFormat(request.url)));
    }
    if (error instanceof ApiFailure) {
      return reply.code(error.status).send({ success: false, message: messageFor(request, error.code, error.params) });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500 && error instanceof Error) {
      // Fastify's own client errors (bad JSON, body too large): say what is wrong in the envelope.
      return reply
        .code(status)
        .send({ success: false, message: `${messageFor(request, 'invalid_params')}: ${error.message}` });
    }
    request.log.error({ err: error, url: request.url, reqId: request.id }, 'unhandled error');
    return reply.code(500).send({ success: false, message: messageFor(request, 'internal_error') });
  });

  const relayMethods = relayRouteTable(app);
  for (const routes of [
    operationsRoutes,
    statusRoutes,
    pricingRoutes,
    contentRoutes,
    setupRoutes,
    userSessionRoutes,
    optionRoutes,
    ratioSyncRoutes,
    tokenRoutes,
    userSelfRoutes,
    channelRoutes,
    catalogueRoutes,
    logRoutes,
    auditRoutes,
    metricsSummaryRoutes,
    midjourneyRoutes,
    taskRoutes,
    redemptionRoutes,
    walletRoutes,
    checkinRoutes,
    passkeyRoutes,
    twoFactorRoutes,
    paymentRoutes,
    cardPaymentRoutes,
    subscriptionRoutes,
    dataRoutes,
    userAdminRoutes,
    customOAuthBindingRoutes,
    userPersonalRoutes,
    userRegisterRoutes,
    verificationRoutes,
    passwordResetRoutes,
    emailBindRoutes,
    oauthRoutes,
    relayRoutes,
  ]) {
    await routes(app, ctx);
  }
  await serveWeb(app, ctx.config.webDist, ctx.options, relayMethods);
  return app;
}
