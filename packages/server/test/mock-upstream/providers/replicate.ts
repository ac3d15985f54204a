import { countWords, splitWords } from '../text.js';
import { asksForLimit, sendJsonBody, startVendorServer, type VendorMock, vendorReply } from './vendor-server.js';

/** The API token the mock accepts. */
export const REPLICATE_KEY = 'r8_mockreplicatetoken';

interface MockPrediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  words: string[];
  fail: boolean;
  /** Whether `Prefer: wait` gives up before it finished (it has when `urls.get` is read). */
  slow: boolean;
  created_at: string;
}

const problem = (status: number, title: string, detail: string) => ({ title, detail, status });

/** FLUX and the other black-forest-labs models answer image URLs instead of text. */
const isImageModel = (model: string) => model.startsWith('black-forest-labs/');

const imagesOf = (prediction: MockPrediction) =>
  Array.from(
    { length: Number(prediction.input.num_outputs ?? 1) },
    (_, index) =>
      `https://replicate.delivery/mock/${prediction.id}/out-${index}.${prediction.input.output_format ?? 'webp'}`,
  );

/** The turns of a prediction input: the system prompt, and the prompt's `User:` / `Assistant:` paragraphs. */
function turnsOf(input: Record<string, unknown>): Array<Record<string, unknown>> {
  const prompt = String(input.prompt ?? '');
  const turns = /^(User|Assistant): /m.test(prompt)
    ? prompt
        .split(/^(?:User|Assistant): /m)
        .slice(1)
        .map((content) => ({ content }))
    : [{ content: prompt }];
  return typeof input.system_prompt === 'string' ? [{ content: input.system_prompt }, ...turns] : turns;
}

/**
 * Replicate's predictions API with a Bearer token: `POST /v1/models/{owner}/{name}/predictions` (or
 * `/v1/predictions` with a `version`). With `Prefer: wait` the answer is the finished prediction (`output` a list of
 * text pieces, `metrics` with the token counts; for black-forest-labs image models `num_outputs` image URLs); `[slow]` answers it `processing`, finished at the
 * first read of `urls.get` (`GET /v1/predictions/{id}`). With `stream: true` it is `starting`, and `urls.stream` (`GET /stream/{id}`) sends
 * `output` events (one per word), then `done`. Errors are problem details: a wrong token 401, `[limit]` 429;
 * `[fail]` fails the prediction (an `error` event when streamed).
 */
export function startReplicateMock(): Promise<VendorMock> {
  const predictions = new Map<string, MockPrediction>();
  let counter = 0;
  return startVendorServer((request, res) => {
    if (request.headers.authorization !== `Bearer ${REPLICATE_KEY}`) {
      return sendJsonBody(res, 401, problem(401, 'Unauthenticated', 'You did not pass a valid authentication token'));
    }
    const base = `http://${request.headers.host}`;
    const view = (prediction: MockPrediction, status: string) => {
      const finished = status === 'succeeded' || status === 'failed';
      const input = prediction.input;
      return {
        id: prediction.id,
        model: prediction.model,
        version: prediction.version,
        input,
        logs: '',
        output:
          status === 'succeeded' ? (isImageModel(prediction.model) ? imagesOf(prediction) : prediction.words) : null,
        data_removed: false,
        error: status === 'failed' ? 'CUDA out of memory' : null,
        status,
        created_at: prediction.created_at,
        ...(finished ? { completed_at: new Date().toISOString() } : {}),
        urls: {
          cancel: `${base}/v1/predictions/${prediction.id}/cancel`,
          get: `${base}/v1/predictions/${prediction.id}`,
          stream: `${base}/stream/${prediction.id}`,
          web: `https://replicate.com/p/${prediction.id}`,
        },
        ...(status === 'succeeded' && isImageModel(prediction.model)
          ? { metrics: { predict_time: 1.2, total_time: 1.3, image_count: imagesOf(prediction).length } }
          : status === 'succeeded'
            ? {
                metrics: {
                  predict_time: 0.42,
                  total_time: 0.5,
                  input_token_count: vendorReply('replicate', prediction.model, turnsOf(input)).usage!.prompt,
                  output_token_count: countWords(prediction.words.join('')),
                  tokens_per_second: 12,
                  time_to_first_token: 0.05,
                },
              }
            : {}),
      };
    };
    const read = /^\/(v1\/predictions|stream)\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && read) {
      const prediction = predictions.get(read[2]!);
      if (!prediction)
        return sendJsonBody(res, 404, problem(404, 'Not found', 'The requested resource could not be found.'));
      if (read[1] === 'v1/predictions') {
        return sendJsonBody(res, 200, view(prediction, prediction.fail ? 'failed' : 'succeeded'));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      for (const [index, word] of prediction.words.entries()) {
        if (index === 2 && prediction.fail) {
          res.end(`event: error\ndata: {"detail":"CUDA out of memory"}\n\n`);
          return;
        }
        res.write(`event: output\nid: ${prediction.id}:${index}\ndata: ${word}\n\n`);
      }
      res.end('event: done\ndata: {}\n\n');
      return;
    }
    const create = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(request.path);
    if (request.method !== 'POST' || (!create && request.path !== '/v1/predictions')) {
      return sendJsonBody(res, 404, problem(404, 'Not found', 'The requested resource could not be found.'));
    }
    const body = request.body as { input?: Record<string, unknown>; stream?: boolean; version?: string };
    if (!body.input || typeof body.input.prompt !== 'string') {
      return sendJsonBody(res, 422, problem(422, 'Input validation failed', 'input: prompt is required'));
    }
    const turns = turnsOf(body.input);
    if (asksForLimit(turns)) {
      return sendJsonBody(
        res,
        429,
        problem(429, 'Request was throttled', 'Request was throttled. Your rate limit resets in ~30s.'),
      );
    }
    const model = create ? `${create[1]}/${create[2]}` : 'pinned/model';
    counter += 1;
    const prediction: MockPrediction = {
      id: `rmock${counter}`,
      model,
      version: body.version ?? 'latest',
      input: body.input,
      words: splitWords(vendorReply('replicate', model, turns).text),
      fail: body.input.prompt.includes('[fail]'),
      slow: body.input.prompt.includes('[slow]'),
      created_at: new Date().toISOString(),
    };
    predictions.set(prediction.id, prediction);
    if (body.stream) return sendJsonBody(res, 201, view(prediction, 'starting'));
    if (prediction.slow) return sendJsonBody(res, 201, view(prediction, 'processing'));
    return sendJsonBody(res, 201, view(prediction, prediction.fail ? 'failed' : 'succeeded'));
  });
}
