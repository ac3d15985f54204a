import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { languageOf } from '../../http/envelope.js';
import { authenticateRelay } from '../admission/authenticate.js';
import { usableModels } from './models.js';

/** `GET /v1beta/models`: the caller's usable models in Gemini's list shape. */
export async function listGeminiModels(ctx: AppContext, request: FastifyRequest) {
  const caller = await authenticateRelay(ctx, request, languageOf(request));
  return {
    models: usableModels(ctx, caller).map((model) => ({
      name: `models/${model}`,
      displayName: model,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
    })),
  };
}
