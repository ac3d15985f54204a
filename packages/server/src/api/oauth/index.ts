import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { customFlowRoutes } from './custom-flows.js';
import { customProviderRoutes } from './custom-providers.js';
import { oidcDiscoveryRoutes } from './discovery.js';
import { redirectFlowRoutes } from './redirect-flows.js';
import { telegramRoutes } from './telegram.js';
import { wechatRoutes } from './wechat.js';

/** Third-party sign-in and binding: `/api/oauth/...` (the e-mail binding lives with the e-mail routes). */
export async function oauthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await redirectFlowRoutes(app, ctx);
  await wechatRoutes(app, ctx);
  await telegramRoutes(app, ctx);
  await oidcDiscoveryRoutes(app, ctx);
  await customProviderRoutes(app, ctx);
  // Last: its parametric routes are for the slugs none of the routes above has.
  await customFlowRoutes(app, ctx);
}
