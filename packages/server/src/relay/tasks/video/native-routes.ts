import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { languageOf } from '../../../http/envelope.js';
import { authenticateRelay } from '../../admission/authenticate.js';
import { RelayError } from '../../errors.js';
import { conveyor } from '../../pipeline.js';
import { familyVideoHandler } from './lookup.js';
import { jimengFields, klingFields } from './native-dialects.js';
import { videoSubmitEndpoint } from './submit.js';

/**
 * The vendors' native video routes the family serves, for scripts written against Kling's or Jimeng's own API:
 * their bodies are read into the unified request, so they reach any video channel that serves the model (not only
 * a Kling or Jimeng one), and they answer in the family's unified shapes.
 */
export function nativeVideoRoutes(app: FastifyInstance, ctx: AppContext): void {
  const klingSubmit = conveyor(ctx, videoSubmitEndpoint(ctx, 'family', klingFields));
  const fetchById = familyVideoHandler(ctx);
  for (const kind of ['text2video', 'image2video']) {
    app.post(`/kling/v1/videos/${kind}`, klingSubmit);
    app.get(`/kling/v1/videos/${kind}/:task_id`, fetchById);
  }

  // Jimeng's API is one path with the operation in `?Action=`: a submit, or a read of the task named in the body.
  const jimengSubmit = conveyor(ctx, videoSubmitEndpoint(ctx, 'family', jimengFields));
  const jimengRead = familyVideoHandler(ctx, (request) => {
    const taskId = (request.body as { task_id?: unknown } | null)?.task_id;
    return typeof taskId === 'string' ? taskId : '';
  });
  app.post('/jimeng/', async (request: FastifyRequest<{ Querystring: { Action?: string } }>, reply: FastifyReply) => {
    const action = request.query.Action;
    if (action === 'CVSync2AsyncSubmitTask') return jimengSubmit(request, reply);
    if (action === 'CVSync2AsyncGetResult') return jimengRead(request, reply);
    // The key is checked first, as on every relay route: an unknown caller learns nothing about the API.
    const lang = languageOf(request);
    await authenticateRelay(ctx, request, lang);
    throw RelayError.of(
      400,
      lang,
      'video_param_invalid',
      { field: 'Action', reason: 'CVSync2AsyncSubmitTask or CVSync2AsyncGetResult' },
      'invalid_request',
    );
  });
}
