import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { numericTaskId, phaseOf, taskStore } from '../task-script.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';
import { answeredFault, answeredFileGet, scriptedTask } from './video-mock-kit.js';

export const VIDU_KEY = 'vda_mock_0123456789abcdef';

/** Vidu's error body (its API framework's shape): the HTTP status, the error's name, a message, metadata. */
function viduError(res: ServerResponse, status: number, reason: string, message: string): void {
  sendJsonBody(res, status, { code: status, reason, message, metadata: { trace_id: randomUUID() } });
}

/** How many images each route takes, as Vidu checks them (FieldItemCountOutOfRange otherwise). */
const IMAGE_COUNTS: Record<string, [min: number, max: number]> = {
  text2video: [0, 0],
  img2video: [1, 1],
  'start-end2video': [2, 2],
  reference2video: [1, 7],
};

interface ViduTask {
  body: Record<string, unknown>;
}

/**
 * Vidu's enterprise API (`/ent/v2/…`): the four submit routes and the creations poll, each checking
 * `Authorization: Token <key>`; the finished video is served by the mock itself at `/files/<task>.mp4`.
 */
export async function startViduVideoMock(): Promise<VendorMock> {
  let store: ReturnType<typeof taskStore<ViduTask>> | undefined;
  const mock = await startVendorServer((request, res) => {
    const self = `http://${request.headers.host}`;
    store ??= taskStore<ViduTask>(self);
    // Result files (the video and its cover) are public URLs at Vidu (signed CDN links), fetched without the key.
    const notFound = () => viduError(res, 404, 'NotFound', 'not found');
    if (answeredFileGet(request, res, store, notFound, /^\/files\/([^/]+)\.(mp4|jpg)$/)) return;
    if (request.headers.authorization !== `Token ${VIDU_KEY}`) {
      viduError(res, 401, 'Unauthorized', 'unauthorized');
      return;
    }
    const submit = /^\/ent\/v2\/(text2video|img2video|start-end2video|reference2video)$/.exec(request.path);
    if (request.method === 'POST' && submit) return handleSubmit(request, res, submit[1] ?? '', store);
    const poll = /^\/ent\/v2\/tasks\/([^/]+)\/creations$/.exec(request.path);
    if (request.method === 'GET' && poll) return handlePoll(res, poll[1] ?? '', store, self);
    viduError(res, 404, 'NotFound', 'not found');
  });
  return mock;
}

function handleSubmit(
  request: VendorRequest,
  res: ServerResponse,
  route: string,
  store: ReturnType<typeof taskStore<ViduTask>>,
): void {
  const body = request.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    viduError(res, 400, 'BadRequest', 'bad request');
    return;
  }
  const lacking = ['model', ...(route === 'text2video' ? ['prompt'] : [])].filter(
    (field) => typeof body[field] !== 'string' || body[field] === '',
  );
  if (lacking.length > 0) {
    viduError(res, 400, 'FieldLacking', `field is missing or empty: ${lacking}`);
    return;
  }
  const images = body.images;
  const [min, max] = IMAGE_COUNTS[route] ?? [0, 0];
  if (route === 'text2video' && images !== undefined) {
    viduError(res, 400, 'FieldUnwanted', 'unwanted field: images');
    return;
  }
  const count = Array.isArray(images) ? images.length : 0;
  if (count < min || count > max) {
    viduError(res, 400, 'FieldItemCountOutOfRange', 'field item count out of range: images');
    return;
  }
  if (
    Array.isArray(images) &&
    images.some((image) => typeof image !== 'string' || !/^(https?:\/\/|data:image\/)/.test(image))
  ) {
    viduError(res, 400, 'FieldInvalid', 'invalid field: images');
    return;
  }
  if (body.duration !== undefined && !Number.isInteger(body.duration)) {
    viduError(res, 400, 'FieldInvalid', 'invalid field: duration');
    return;
  }
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  if (prompt.includes('[refuse]')) {
    viduError(res, 400, 'AuditSubmitIllegal', 'submit is illegal');
    return;
  }
  const id = numericTaskId();
  store.set(id, scriptedTask(id, prompt, { body }));
  sendJsonBody(res, 200, {
    task_id: id,
    state: 'created',
    model: body.model,
    prompt,
    images: images ?? [],
    duration: body.duration ?? 5,
    seed: body.seed ?? 0,
    resolution: body.resolution ?? '1080p',
    movement_amplitude: body.movement_amplitude ?? 'auto',
    ...(body.aspect_ratio ? { aspect_ratio: body.aspect_ratio } : {}),
    bgm: body.bgm ?? false,
    payload: body.payload ?? '',
    credits: 4,
    created_at: new Date().toISOString(),
  });
}

function handlePoll(
  res: ServerResponse,
  id: string,
  store: ReturnType<typeof taskStore<ViduTask>>,
  self: string,
): void {
  const task = store.get(id);
  if (!task) {
    viduError(res, 404, 'TaskNotFound', 'task not found');
    return;
  }
  if (answeredFault(res, task, () => viduError(res, 500, 'InternalServiceFailure', 'internal service failure'))) return;
  const phase = phaseOf(task);
  const common = { id, err_code: '', credits: 4, payload: '', bgm: false, off_peak: false };
  switch (phase.state) {
    case 'queued':
      sendJsonBody(res, 200, { ...common, state: 'queueing', creations: [] });
      return;
    case 'running':
      sendJsonBody(res, 200, { ...common, state: 'processing', creations: [] });
      return;
    case 'failed':
      sendJsonBody(res, 200, { ...common, state: 'failed', err_code: 'CreationPolicyViolation', creations: [] });
      return;
    case 'done': {
      const creations =
        task.script === 'no-url'
          ? []
          : [
              {
                id: `${id}01`,
                url: `${self}/files/${id}.mp4`,
                cover_url: `${self}/files/${id}.jpg`,
                watermarked_url: '',
              },
            ];
      sendJsonBody(res, 200, { ...common, state: 'success', creations });
      return;
    }
  }
}
