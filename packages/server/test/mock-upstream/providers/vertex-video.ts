import type { ServerResponse } from 'node:http';
import { taskStore } from '../task-script.js';
import { isRecord } from '../text.js';
import { sendJsonBody, type VendorRequest } from './vendor-server.js';
import { answerOperation, googleError, startOperation, type VeoTaskPayload } from './veo-script.js';
import { startVertexMock, type VertexAuth, type VertexMock } from './vertex.js';
import { sendVideo, VIDEO_FILE } from './video-mock-kit.js';

export { VERTEX_API_KEY } from './vertex.js';

/** Cloud Storage's error body for an object that is not there. */
const noSuchObject = (res: ServerResponse, name: string) =>
  googleError(res, 404, 'NOT_FOUND', `No such object: ${name}`);

/**
 * Veo on Vertex AI, on the Vertex mock's host (its token endpoint, service accounts and express key, vertex.ts):
 * - `POST /v1/projects/{p}/locations/{l}/publishers/google/models/{model}:predictLongRunning` (or the express-mode
 *   path without project) → `{name: "projects/{p}/locations/{l}/publishers/google/models/{model}/operations/{id}"}`;
 *   `[refuse]` in the prompt is a 400 INVALID_ARGUMENT.
 * - `POST …/models/{model}:fetchPredictOperation {operationName}` → the operation (task-script.ts decides its
 *   course). When done, `response.videos[0]` is `{gcsUri, mimeType}` when the request named a `storageUri`, else
 *   `{bytesBase64Encoded, mimeType}` (the sample video itself), as Vertex answers.
 * - Cloud Storage's JSON API: `GET /storage/v1/b/{bucket}/o/{object}?alt=media` → the sample video, for any token
 *   this mock issued (point `STORAGE_EMULATOR_HOST` at the mock).
 */
export function startVertexVideoMock(): Promise<VertexMock> {
  let base = '';
  const scope = () => `vertex-video:${base}`;
  const finished = (task: { id: string; payload: VeoTaskPayload }, withVideo: boolean) => {
    const response: Record<string, unknown> = {
      '@type': 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse',
      raiMediaFilteredCount: 0,
    };
    if (!withVideo) return response;
    const prefix = task.payload.storageUri?.replace(/\/+$/, '');
    response.videos = [
      prefix
        ? { gcsUri: `${prefix}/${task.id}/sample_0.mp4`, mimeType: 'video/mp4' }
        : { bytesBase64Encoded: VIDEO_FILE.toString('base64'), mimeType: 'video/mp4' },
    ];
    return response;
  };

  const route = (request: VendorRequest, res: ServerResponse, auth: VertexAuth): boolean => {
    const storage = /^\/storage\/v1\/b\/([^/]+)\/o\/([^/]+)$/.exec(request.path);
    if (storage && request.method === 'GET') {
      if (!auth.bearer()) return true;
      const object = decodeURIComponent(storage[2]!);
      const id = /^(?:.*\/)?([0-9a-f]{16})\/sample_0\.mp4$/.exec(object)?.[1];
      const task = id ? taskStore<VeoTaskPayload>(scope()).get(id) : undefined;
      if (!task || request.query.alt !== 'media') noSuchObject(res, `${decodeURIComponent(storage[1]!)}/${object}`);
      else sendVideo(res);
      return true;
    }
    const match =
      /^\/v1\/(?:projects\/([^/]+)\/locations\/([^/]+)\/)?publishers\/google\/models\/([^/:]+):(predictLongRunning|fetchPredictOperation)$/.exec(
        request.path,
      );
    if (!match || request.method !== 'POST') return false;
    const [, project, location = 'us-central1', rawModel, method] = match;
    if (!auth.project(project)) return true;
    const model = decodeURIComponent(rawModel!);
    const body = isRecord(request.body) ? request.body : {};
    if (method === 'fetchPredictOperation') {
      const name = typeof body.operationName === 'string' ? body.operationName : '';
      const id = /\/operations\/([^/]+)$/.exec(name)?.[1];
      const task = id ? taskStore<VeoTaskPayload>(scope()).get(id) : undefined;
      if (!task || task.payload.name !== name) {
        googleError(res, 404, 'NOT_FOUND', `Operation ${name} not found.`);
        return true;
      }
      answerOperation(res, task, finished);
      return true;
    }
    const instance = Array.isArray(body.instances) && isRecord(body.instances[0]) ? body.instances[0] : {};
    const prompt = typeof instance.prompt === 'string' ? instance.prompt : '';
    if (!prompt) {
      googleError(res, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
      return true;
    }
    if (prompt.includes('[refuse]')) {
      googleError(
        res,
        400,
        'INVALID_ARGUMENT',
        "The prompt contains sensitive words that violate Google's Responsible AI practices. Try rephrasing the prompt.",
      );
      return true;
    }
    const parameters = isRecord(body.parameters) ? body.parameters : {};
    const storageUri = typeof parameters.storageUri === 'string' ? parameters.storageUri : undefined;
    const task = startOperation(
      scope(),
      prompt,
      { model, ...(storageUri ? { storageUri } : {}) },
      (id) =>
        `projects/${project ?? 'express'}/locations/${location}/publishers/google/models/${model}/operations/${id}`,
    );
    sendJsonBody(res, 200, { name: task.payload.name });
    return true;
  };

  return startVertexMock({ extraRoute: route }).then((mock) => {
    base = mock.baseUrl;
    return mock;
  });
}
