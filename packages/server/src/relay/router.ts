import type { FastifyInstance } from 'fastify';
import { guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import { languageOf } from '../http/envelope.js';
import { speechEndpoint, transcriptionEndpoint } from './endpoints/audio.js';
import { chatEndpoint, playgroundChatEndpoint } from './endpoints/chat.js';
import { claudeMessagesEndpoint } from './endpoints/claude-messages.js';
import { geminiGenerateEndpoint } from './endpoints/gemini-generate.js';
import { OPENAI_ROUTE_PATHS, openAiRouteEndpoint } from './endpoints/openai-routes.js';
import { responsesEndpoint } from './endpoints/responses.js';
import { responsesCompactEndpoint } from './endpoints/responses-compact.js';
import { RelayError } from './errors.js';
import { billingSubscription, billingUsage } from './handlers/billing-compat.js';
import { claudeCountTokens } from './handlers/claude-count-tokens.js';
import { listGeminiModels } from './handlers/gemini-models.js';
import { listModels, retrieveModel } from './handlers/models.js';
import { responsesInputTokens } from './handlers/responses-input-tokens.js';
import { conveyor } from './pipeline.js';
import { realtimeRoutes } from './sessions/realtime.js';
import { responsesSocketRoutes } from './sessions/responses-socket.js';
import { responseResourceRoutes } from './stored-responses/routes.js';
import { taskRelayRoutes } from './tasks/routes.js';

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
  // Remixing needs the vendor's own copy of the earlier video (Sora only): a clear refusal rather than a 404.
  [['POST'], '/v1/videos/:task_id/remix'],
];

/** The gateway's OpenAI-compatible routes. */
export async function relayRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Audio uploads stay bytes: the relay reads the fields it needs and forwards the rest untouched.
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: 64 * 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );
  // Every model route is one endpoint on the conveyor (pipeline.ts).
  app.post('/v1/chat/completions', conveyor(ctx, chatEndpoint));
  app.post('/pg/chat/completions', { preHandler: guards(ctx).user }, conveyor(ctx, playgroundChatEndpoint));
  for (const path of OPENAI_ROUTE_PATHS) app.post(path, conveyor(ctx, openAiRouteEndpoint(path)));
  app.post('/v1/responses', conveyor(ctx, responsesEndpoint(ctx.responseOwners)));
  app.post('/v1/responses/compact', conveyor(ctx, responsesCompactEndpoint));
  app.post('/v1/responses/input_tokens', (request) => responsesInputTokens(ctx, request));
  // A stored response's routes go to the channel that created it; nothing is billed.
  responseResourceRoutes(app, ctx);
  // WebSocket mode: each response.create becomes one POST /v1/responses on the conveyor above.
  responsesSocketRoutes(app, ctx);
  realtimeRoutes(app, ctx);
  app.post('/v1/messages', conveyor(ctx, claudeMessagesEndpoint));
  app.post('/v1/messages/count_tokens', (request) => claudeCountTokens(ctx, request));
  app.post('/v1/audio/speech', conveyor(ctx, speechEndpoint));
  app.post('/v1/audio/transcriptions', conveyor(ctx, transcriptionEndpoint('transcriptions')));
  app.post('/v1/audio/translations', conveyor(ctx, transcriptionEndpoint('translations')));
  app.get('/v1/models', (request) => listModels(ctx, request));
  for (const prefix of ['', '/v1']) {
    app.get(`${prefix}/dashboard/billing/subscription`, (request) => billingSubscription(ctx, request));
    app.get(`${prefix}/dashboard/billing/usage`, (request) => billingUsage(ctx, request));
  }
  app.get('/v1/models/:model', (request) => retrieveModel(ctx, request));
  // Gemini's native API (Google SDKs): `{model}:generateContent` arrives as one path segment.
  app.post('/v1beta/models/:target', conveyor(ctx, geminiGenerateEndpoint));
  app.post('/v1/models/:target', conveyor(ctx, geminiGenerateEndpoint));
  app.get('/v1beta/models', (request) => listGeminiModels(ctx, request));
  await taskRelayRoutes(app, ctx);
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
