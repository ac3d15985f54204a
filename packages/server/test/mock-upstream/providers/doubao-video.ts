import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { phaseOf, type ScriptedTask, taskStore } from '../task-script.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';
import { answeredFault, answeredFileGet, ENVOY_RESET, scriptedTask } from './video-mock-kit.js';

export const ARK_KEY = 'ark-mock-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';

const TASKS = '/api/v3/contents/generations/tasks';
const FRAME: Record<string, [number, number]> = { '480p': [854, 480], '720p': [1280, 720], '1080p': [1920, 1080] };
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
const ROLES = ['first_frame', 'last_frame', 'reference_image'];

const requestId = () => randomBytes(16).toString('hex');

/** Ark's error body, OpenAI's shape with Ark's codes; its messages end with the request id. */
function arkError(res: ServerResponse, status: number, code: string, message: string, type: string, param = ''): void {
  sendJsonBody(res, status, { error: { code, message: `${message} Request id: ${requestId()}`, param, type } });
}

interface ArkTask {
  model: string;
  duration: number;
  resolution: string;
  ratio: string;
  seed: number;
  createdAt: number;
}

type Store = Map<string, ScriptedTask<ArkTask>>;

/**
 * Volcengine Ark's video task API: create, get and delete at `/api/v3/contents/generations/tasks`, each checking the
 * Bearer API key; the finished video is served by the mock itself at `/files/<task>.mp4`.
 */
export async function startDoubaoVideoMock(): Promise<VendorMock> {
  let store: Store | undefined;
  return startVendorServer((request, res) => {
    const self = `http://${request.headers.host}`;
    store ??= taskStore<ArkTask>(self);
    // Result links are pre-signed object-storage URLs at Ark, fetched without the key.
    const notFound = () => arkError(res, 404, 'ResourceNotFound', 'The specified resource is not found.', 'NotFound');
    if (answeredFileGet(request, res, store, notFound)) return;
    if (request.headers.authorization !== `Bearer ${ARK_KEY}`) {
      arkError(
        res,
        401,
        'AuthenticationError',
        'The API key or AK/SK in the request is missing or invalid.',
        'Unauthorized',
      );
      return;
    }
    if (request.method === 'POST' && request.path === TASKS) {
      create(request, res, store);
      return;
    }
    const one = new RegExp(`^${TASKS}/([^/]+)$`).exec(request.path);
    if (one && request.method === 'GET') {
      get(res, one[1] ?? '', store, self);
      return;
    }
    if (one && request.method === 'DELETE') {
      remove(res, one[1] ?? '', store);
      return;
    }
    arkError(res, 404, 'ResourceNotFound', 'The specified resource is not found.', 'NotFound');
  });
}

const invalid = (res: ServerResponse, param: string, message: string) =>
  arkError(res, 400, 'InvalidParameter', message, 'BadRequest', param);

function create(request: VendorRequest, res: ServerResponse, store: Store): void {
  const body = request.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    invalid(res, '', 'The request body is not valid JSON.');
    return;
  }
  if (typeof body.model !== 'string' || !body.model) {
    invalid(res, 'model', 'The parameter `model` specified in the request is not valid.');
    return;
  }
  const content = Array.isArray(body.content) ? (body.content as Array<Record<string, unknown>>) : [];
  if (content.length === 0) {
    invalid(res, 'content', 'The parameter `content` specified in the request is not valid.');
    return;
  }
  const texts = content.filter((item) => item.type === 'text');
  const images = content.filter((item) => item.type === 'image_url');
  const imageProblem = images.find((item) => {
    const url = (item.image_url as { url?: unknown } | undefined)?.url;
    const role = item.role;
    return (
      typeof url !== 'string' ||
      !/^(https?:\/\/|data:image\/[a-z]+;base64,)/.test(url) ||
      (role !== undefined && !ROLES.includes(String(role)))
    );
  });
  if (texts.length > 1 || imageProblem) {
    invalid(res, 'content', 'The parameter `content` specified in the request is not valid.');
    return;
  }
  const roles = images.map((item) => item.role);
  if (roles.includes('last_frame') && !roles.includes('first_frame')) {
    invalid(
      res,
      'content',
      'The parameter `content.role` specified in the request is not valid: last_frame needs first_frame.',
    );
    return;
  }
  if (body.duration !== undefined && !(Number.isInteger(body.duration) && Number(body.duration) >= 2)) {
    invalid(res, 'duration', 'The parameter `duration` specified in the request is not valid.');
    return;
  }
  if (body.resolution !== undefined && !(String(body.resolution) in FRAME)) {
    invalid(res, 'resolution', 'The parameter `resolution` specified in the request is not valid.');
    return;
  }
  if (body.ratio !== undefined && !RATIOS.includes(String(body.ratio))) {
    invalid(res, 'ratio', 'The parameter `ratio` specified in the request is not valid.');
    return;
  }
  const prompt = String(texts[0]?.text ?? '');
  if (prompt.includes('[refuse]')) {
    arkError(
      res,
      400,
      'InputTextSensitiveContentDetected',
      'The request failed because the input text may contain sensitive information.',
      'BadRequest',
    );
    return;
  }
  // Ark task ids: `cgt-` and a timestamp-ordered suffix.
  const id = `cgt-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;
  store.set(
    id,
    scriptedTask(id, prompt, {
      model: body.model,
      // `[made:N]` in the prompt: Ark makes (and counts tokens for) N seconds whatever was asked.
      duration: Number(/\[made:(\d+)\]/.exec(prompt)?.[1] ?? body.duration ?? 5),
      resolution: String(body.resolution ?? '720p'),
      ratio: String(body.ratio ?? (images.length > 0 ? 'adaptive' : '16:9')),
      seed: Number(body.seed ?? 11),
      createdAt: Math.floor(Date.now() / 1000),
    }),
  );
  sendJsonBody(res, 200, { id });
}

function get(res: ServerResponse, id: string, store: Store, self: string): void {
  const task = store.get(id);
  if (!task) {
    arkError(res, 404, 'ResourceNotFound', `The specified task ${id} is not found.`, 'NotFound');
    return;
  }
  const internalError = () =>
    arkError(
      res,
      500,
      'InternalServiceError',
      'The service encountered an unexpected internal error.',
      'InternalServerError',
    );
  if (answeredFault(res, task, internalError, ENVOY_RESET)) return;
  const { model, duration, resolution, ratio, seed, createdAt } = task.payload;
  const shape = { id, model, seed, resolution, ratio, duration, framespersecond: 24, created_at: createdAt };
  const phase = phaseOf(task);
  const updatedAt = Math.floor(Date.now() / 1000);
  switch (phase.state) {
    case 'queued':
      sendJsonBody(res, 200, { ...shape, status: 'queued', updated_at: updatedAt });
      return;
    case 'running':
      sendJsonBody(res, 200, { ...shape, status: 'running', updated_at: updatedAt });
      return;
    case 'failed':
      sendJsonBody(res, 200, {
        ...shape,
        status: 'failed',
        error: {
          code: 'OutputVideoSensitiveContentDetected',
          message: 'The request failed because the output video may contain sensitive information.',
        },
        updated_at: updatedAt,
      });
      return;
    case 'done': {
      // Ark counts tokens as width × height × 24 fps × seconds / 1024.
      const [width, height] = FRAME[resolution] ?? [1280, 720];
      const tokens = Math.floor((width * height * 24 * duration) / 1024);
      sendJsonBody(res, 200, {
        ...shape,
        status: 'succeeded',
        content: task.script === 'no-url' ? {} : { video_url: `${self}/files/${id}.mp4` },
        usage: { completion_tokens: tokens, total_tokens: tokens },
        updated_at: updatedAt,
      });
      return;
    }
  }
}

/**
 * Ark cancels a queued task and deletes a finished one; a running task cannot be stopped. (Ark's exact error code for
 * that case is not documented; this one is the mock's.)
 */
function remove(res: ServerResponse, id: string, store: Store): void {
  const task = store.get(id);
  if (!task) {
    arkError(res, 404, 'ResourceNotFound', `The specified task ${id} is not found.`, 'NotFound');
    return;
  }
  if (phaseOf(task).state === 'running') {
    arkError(res, 409, 'InvalidAction.TaskRunning', `The task ${id} is running and cannot be cancelled.`, 'Conflict');
    return;
  }
  store.delete(id);
  sendJsonBody(res, 200, {});
}
