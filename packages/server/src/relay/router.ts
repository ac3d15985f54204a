import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { languageOf } from '../http/envelope.js';
import { RelayError } from './errors.js';
import { handleChatCompletions } from './handlers/chat.js';
import { listModels, retrieveModel } from './handlers/models.js';

// OpenAI routes this gateway does not offer: an explicit 501 in the OpenAI shape instead of a confusing 404.
const NOT_IMPLEMENTED: Array<[('GET' | 'POST' | 'DELETE')[], string]> = [
  [['POST'], '/v1/images/variations'],
  [['GET', 'POST'], '/v1/files'],
  [['GET', 'POST', 'DELETE'], '/v1/files/*'],
  [['GET', 'POST'], '/v1/fine-tunes'],
  [['GET', 'POST', 'DELETE'], '/v1/fine-tunes/*'],
  [['GET', 'POST'], '/v1/fine_tuning/jobs'],
  [['GET', 'POST'], '/v1/fine_tuning/jobs/*'],
  [['DELETE'], '/v1/models/:model'],
];

/** The gateway's OpenAI-compatible routes. */
export async function relayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post('/v1/chat/completions', (request, reply) => handleChatCompletions(ctx, request, reply));
  app.get('/v1/models', (request) => listModels(ctx, request));
  app.get('/v1/models/:model', (request) => retrieveModel(ctx, request));
  for (const [methods, path] of NOT_IMPLEMENTED) {
    app.route({
      method: methods,
      url: path,
      handler: async (request) => {
        throw RelayError.of(501, languageOf(request), 'relay_not_implemented', undefined, 'api_not_implemented');
      },
    });
  }
}
