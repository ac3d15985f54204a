import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { conveyor } from '../pipeline.js';
import { SUBMIT_PATHS } from './midjourney/actions.js';
import {
  midjourneyFetchHandler,
  midjourneyImageHandler,
  midjourneyImageSeedHandler,
  midjourneyListByConditionHandler,
} from './midjourney/fetch.js';
import { midjourneySubmitEndpoint } from './midjourney/submit.js';
import { sunoFetchManyHandler, sunoFetchOneHandler } from './suno/fetch.js';
import { sunoSubmitEndpoint } from './suno/submit.js';

/**
 * The asynchronous-task relay: the Midjourney-proxy API under `/mj` and `/{mode}/mj` (mode = the upstream's speed
 * lane, e.g. `fast`, `relax`, `turbo`, passed through in the path) and the Suno API under `/suno`. The poller that
 * keeps those tasks current is a background job started by main.ts, like the channel recovery.
 */
export async function taskRelayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  for (const prefix of ['/mj', '/:mode/mj']) {
    for (const [path, kind] of Object.entries(SUBMIT_PATHS)) {
      app.post(`${prefix}${path}`, conveyor(ctx, midjourneySubmitEndpoint(ctx, kind)));
    }
    app.get(`${prefix}/task/:id/fetch`, midjourneyFetchHandler(ctx));
    app.get(`${prefix}/task/:id/image-seed`, midjourneyImageSeedHandler(ctx));
    app.post(`${prefix}/task/list-by-condition`, midjourneyListByConditionHandler(ctx));
    app.get(`${prefix}/image/:id`, midjourneyImageHandler(ctx));
  }
  app.post('/suno/submit/:action', conveyor(ctx, sunoSubmitEndpoint(ctx)));
  app.get('/suno/fetch/:id', sunoFetchOneHandler(ctx));
  app.post('/suno/fetch', sunoFetchManyHandler(ctx));
}
