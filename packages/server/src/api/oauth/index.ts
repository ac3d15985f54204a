import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
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
}
