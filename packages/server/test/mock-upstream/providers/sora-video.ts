import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isMultipart } from '../body.js';
import { phaseOf, type ScriptedTask, taskStore } from '../task-script.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';
import { answeredFault, scriptedTask, sendVideoRange } from './video-mock-kit.js';

/**
 * OpenAI's Videos API (Sora) as OpenAI, Sora and Azure OpenAI channels reach it: `POST /v1/videos` (JSON or
 * multipart with an `input_reference` file) answers a video object `{id:"video_…", object:"video", status:"queued"}`;
 * `GET /v1/videos/{id}` moves the task one step per read (task-script.ts markers); `GET …/content` serves the
 * finished MP4 (Range honoured); `DELETE` forgets it. Azure's form is the same under `/openai/v1/videos` with
 * `?api-version=preview` and an `api-key` header. Errors are OpenAI's `{error:{message,type,code}}`.
 * A prompt with `[made:N]` finishes as an N-second video whatever was asked (the settlement's case); `[refuse]`
 * is refused by moderation.
 */

export const SORA_KEY = 'sk-sora-mock-key';
interface SoraTask {
  model: string;
  prompt: string;
  seconds: string;
  size: string;
  deleted: boolean;
}

const openAiError = (res: ServerResponse, status: number, message: string, code: string | null, type: string) =>
  sendJsonBody(res, status, { error: { message, type, param: null, code } });

function keyOf(request: VendorRequest, azure: boolean): string | null {
  if (azure) return request.headers['api-key'] ?? null;
  return /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
}

function videoJson(task: ScriptedTask<SoraTask>) {
  const phase = phaseOf(task);
  const status = { queued: 'queued', running: 'in_progress', done: 'completed', failed: 'failed' }[phase.state];
  const made = /\[made:(\d+)\]/.exec(task.payload.prompt)?.[1];
  return {
    id: task.id,
    object: 'video',
    model: task.payload.model,
    status,
    progress: phase.state === 'running' ? phase.percent : phase.state === 'queued' ? 0 : 100,
    created_at: Math.floor(task.submittedAt / 1000),
    completed_at: phase.state === 'done' ? Math.floor(Date.now() / 1000) : null,
    expires_at: null,
    prompt: task.payload.prompt,
    seconds: phase.state === 'done' && made ? made : task.payload.seconds,
    size: task.payload.size,
    remixed_from_video_id: null,
    error:
      phase.state === 'failed' ? { code: 'video_generation_failed', message: 'The scene could not be rendered' } : null,
  };
}

function create(request: VendorRequest, res: ServerResponse, scope: string) {
  const body = request.body;
  const fields: Record<string, unknown> = isMultipart(body)
    ? body.fields
    : body && typeof body === 'object'
      ? (body as Record<string, unknown>)
      : {};
  const prompt = typeof fields.prompt === 'string' ? fields.prompt : '';
  if (!prompt)
    return openAiError(
      res,
      400,
      "Missing required parameter: 'prompt'.",
      'missing_required_parameter',
      'invalid_request_error',
    );
  if (prompt.includes('[refuse]')) {
    return openAiError(
      res,
      400,
      'Your request was blocked by our moderation system.',
      'moderation_blocked',
      'invalid_request_error',
    );
  }
  const seconds = typeof fields.seconds === 'string' ? fields.seconds : '4';
  if (!['4', '8', '12'].includes(seconds)) {
    return openAiError(
      res,
      400,
      `Invalid value: '${seconds}'. Supported values are: '4', '8', and '12'.`,
      'invalid_value',
      'invalid_request_error',
    );
  }
  const task = scriptedTask<SoraTask>(`video_${randomBytes(12).toString('hex')}`, prompt, {
    model: typeof fields.model === 'string' ? fields.model : 'sora-2',
    prompt,
    seconds,
    size: typeof fields.size === 'string' ? fields.size : '720x1280',
    deleted: false,
  });
  taskStore<SoraTask>(scope).set(task.id, task);
  return sendJsonBody(res, 200, videoJson(task));
}

export async function startSoraVideoMock(): Promise<VendorMock> {
  const mock: VendorMock = await startVendorServer((request, res) => {
    const azure = request.path.startsWith('/openai/v1/');
    if (azure && request.query['api-version'] !== 'preview') {
      return openAiError(res, 404, 'Resource not found', '404', 'invalid_request_error');
    }
    if (keyOf(request, azure) !== SORA_KEY) {
      return openAiError(res, 401, 'Incorrect API key provided.', 'invalid_api_key', 'invalid_request_error');
    }
    const path = azure ? request.path.replace('/openai/v1/', '/v1/') : request.path;
    const scope = `sora:${mock.baseUrl}`;
    if (request.method === 'POST' && path === '/v1/videos') return create(request, res, scope);
    const match = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(path);
    const task = match ? taskStore<SoraTask>(scope).get(decodeURIComponent(match[1]!)) : undefined;
    if (!task || task.payload.deleted) {
      return openAiError(res, 404, 'Video not found', 'not_found', 'invalid_request_error');
    }
    if (request.method === 'DELETE' && !match![2]) {
      task.payload.deleted = true;
      return sendJsonBody(res, 200, { id: task.id, object: 'video.deleted', deleted: true });
    }
    if (request.method !== 'GET') return openAiError(res, 405, 'Method not allowed', null, 'invalid_request_error');
    if (match![2]) {
      if (phaseOf(task).state !== 'done') {
        return openAiError(res, 404, 'Video content is not available yet', 'not_found', 'invalid_request_error');
      }
      return sendVideoRange(res, request.headers.range);
    }
    if (answeredFault(res, task, () => openAiError(res, 500, 'The server had an error', null, 'server_error'))) return;
    return sendJsonBody(res, 200, videoJson(task));
  });
  return mock;
}
