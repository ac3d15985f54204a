import type { ServerResponse } from 'node:http';
import { taskStore } from '../task-script.js';
import { isRecord } from '../text.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';
import { answerOperation, googleError, sendVideo, startOperation, type VeoTaskPayload } from './veo-script.js';

/** The API key the mock accepts (`x-goog-api-key`, or `?key=` as Google also reads it). */
export const GEMINI_VIDEO_KEY = 'AIza-mock-veo-key';

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
 * - `GET /v1beta/files/{id}:download?alt=media` → the sample video, for the key only.
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
      return sendVideo(res);
    }
    googleError(res, 404, 'NOT_FOUND', `The requested URL ${request.path} was not found on this server.`);
  }).then((mock) => {
    base = mock.baseUrl;
    return mock;
  });
}
