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
import { videoContentHandler } from './video/content.js';
import { deleteVideoHandler, familyVideoHandler, openAiVideoHandler, openAiVideoListHandler } from './video/lookup.js';
import { nativeVideoRoutes } from './video/native-routes.js';
import { videoSubmitEndpoint } from './video/submit.js';

/**
 * The asynchronous-task relay: the Midjourney-proxy API under `/mj` and `/{mode}/mj` (mode = the upstream's speed
 * lane, e.g. `fast`, `relax`, `turbo`, passed through in the path), the Suno API under `/suno`, and video. The poller that
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
  // Video: OpenAI's Videos API and the family's unified route, on every channel whose provider makes videos.
  app.post('/v1/videos', conveyor(ctx, videoSubmitEndpoint(ctx, 'openai')));
  app.get('/v1/videos', openAiVideoListHandler(ctx));
  app.get('/v1/videos/:task_id', openAiVideoHandler(ctx));
  app.delete('/v1/videos/:task_id', deleteVideoHandler(ctx));
  app.get('/v1/videos/:task_id/content', videoContentHandler(ctx));
  app.post('/v1/video/generations', conveyor(ctx, videoSubmitEndpoint(ctx, 'family')));
  app.get('/v1/video/generations/:task_id', familyVideoHandler(ctx));
  nativeVideoRoutes(app, ctx);
  app.get('/suno/fetch/:id', sunoFetchOneHandler(ctx));
  app.post('/suno/fetch', sunoFetchManyHandler(ctx));
}
