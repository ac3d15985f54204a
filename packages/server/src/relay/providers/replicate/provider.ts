import type { Provider } from '../../provider.js';
import { replicateImages } from './images.js';
import { runPrediction, streamPrediction } from './prediction.js';
import { predictionCall, toReplicateInput } from './request.js';
import { fromPrediction, replicateError } from './response.js';
import { replicateToOpenAi } from './stream.js';

/**
 * Models on Replicate (type 56): the model name is `owner/name` (chat also `owner/name:version`), each request one
 * prediction. Chat goes to language models, image generation to image models (images.ts). Whole answers wait for
 * the prediction (`Prefer: wait`, polled if still running); chat streams read its `urls.stream` (prediction.ts).
 */
export const replicateProvider: Provider = {
  functions: {
    chat: {
      call: (channel, request) =>
        predictionCall(channel, request.model, { ...toReplicateInput(request) }, request.stream === true),
      answer: fromPrediction,
      stream: replicateToOpenAi,
    },
    images: replicateImages,
  },
  error: replicateError,
  open: (call, _channel, options) => (options.stream ? streamPrediction(call, options) : runPrediction(call, options)),
};
