import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { taskStore } from '../task-script.js';
import { isRecord } from '../text.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';
import { answerOperation, googleError, startOperation, type VeoTaskPayload } from './veo-script.js';
import { sendVideo } from './video-mock-kit.js';

/** The API key the mock accepts (`x-goog-api-key`, or `?key=` as Google also reads it). */
export const GEMINI_VIDEO_KEY = 'AIza-mock-veo-key';

/** Signs the redirect's storage URL, which then needs no key (and cannot be forged). */
const URL_SECRET = randomBytes(16);
const sign = (id: string, expires: string) => createHmac('sha256', URL_SECRET).update(`${id}:${expires}`).digest('hex');

const keyOf = (request: VendorRequest) => request.headers['x-goog-api-key'] ?? request.query.key ?? '';

/** Google answers a wrong key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID), a missing one with 403. */
function refuseKey(request: VendorRequest, res: ServerResponse): boolean {
  const key = keyOf(request);
  if (key === GEMINI_VIDEO_KEY) return false;
  if (!key) {
    googleError(
      res,
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    );
    return true;
  }
  sendJsonBody(res, 400, {
    error: {
      code: 400,
      message: 'API key not valid. Please pass a valid API key.',
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ],
    },
  });
  return true;
}

/**
 * Veo on the Gemini API:
 * - `POST /v1beta/models/{model}:predictLongRunning` `{instances:[{prompt, image?, lastFrame?}], parameters}` →
 *   `{name: "models/{model}/operations/{id}"}`; `[refuse]` in the prompt is a 400 INVALID_ARGUMENT, as Google
 *   refuses a prompt its filters block; `seed` is refused as the Gemini API refuses it.
 * - `GET /v1beta/models/{model}/operations/{id}` → the operation (task-script.ts decides its course); when done,
 *   `response.generateVideoResponse.generatedSamples[0].video.uri` is a file on this mock.
 * - `GET /v1beta/files/{id}:download?alt=media` (key) → 302 to a signed URL on this mock, which serves the sample
 *   video without a key (`curl -L` in Google's own REST example follows the same redirect).
 */
export function startGeminiVideoMock(): Promise<VendorMock> {
  let base = '';
  const scope = () => `gemini-video:${base}`;
  const finished = (task: { id: string }, withVideo: boolean) => ({
    '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
    generateVideoResponse: withVideo
      ? { generatedSamples: [{ video: { uri: `${base}/v1beta/files/${task.id}:download?alt=media` } }] }
      : {},
  });
  return startVendorServer((request, res) => {
    const signed = /^\/signed-video\/([0-9a-f]{16})$/.exec(request.path);
    if (signed && request.method === 'GET') {
      const { expires = '', sig = '' } = request.query;
      if (!(Number(expires) > Date.now() / 1000) || sig !== sign(signed[1]!, expires)) {
        res.writeHead(403, { 'content-type': 'text/plain' });
        res.end('Forbidden');
        return;
      }
      return sendVideo(res);
    }
    if (refuseKey(request, res)) return;
    const submit = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(request.path);
    if (submit && request.method === 'POST') {
      const model = decodeURIComponent(submit[1]!);
      const body = isRecord(request.body) ? request.body : {};
      const instance = Array.isArray(body.instances) && isRecord(body.instances[0]) ? body.instances[0] : {};
      const prompt = typeof instance.prompt === 'string' ? instance.prompt : '';
      if (!prompt) return googleError(res, 400, 'INVALID_ARGUMENT', 'instances[0].prompt is required.');
      const parameters = isRecord(body.parameters) ? body.parameters : {};
      if (parameters.seed !== undefined) {
        return googleError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "seed".');
      }
      if (prompt.includes('[refuse]')) {
        return googleError(
          res,
          400,
          'INVALID_ARGUMENT',
          "The prompt could not be submitted. This prompt contains words that violate Gemini API's usage guidelines.",
        );
      }
      const task = startOperation(scope(), prompt, { model }, (id) => `models/${model}/operations/${id}`);
      return sendJsonBody(res, 200, { name: task.payload.name });
    }
    const poll = /^\/v1beta\/models\/([^/]+)\/operations\/([^/]+)$/.exec(request.path);
    if (poll && request.method === 'GET') {
      const task = taskStore<VeoTaskPayload>(scope()).get(poll[2]!);
      if (!task) return googleError(res, 404, 'NOT_FOUND', `Operation ${request.path.slice(8)} not found.`);
      return answerOperation(res, task, finished);
    }
    const file = /^\/v1beta\/files\/([^/:]+):download$/.exec(request.path);
    if (file && request.method === 'GET' && request.query.alt === 'media') {
      const task = taskStore<VeoTaskPayload>(scope()).get(file[1]!);
      if (!task) return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
      // As Google does: the keyed download redirects to a short-lived signed URL on its storage.
      const expires = String(Math.floor(Date.now() / 1000) + 3600);
      res.writeHead(302, {
        location: `${base}/signed-video/${task.id}?expires=${expires}&sig=${sign(task.id, expires)}`,
      });
      res.end();
      return;
    }
    googleError(res, 404, 'NOT_FOUND', `The requested URL ${request.path} was not found on this server.`);
  }).then((mock) => {
    base = mock.baseUrl;
    return mock;
  });
}
