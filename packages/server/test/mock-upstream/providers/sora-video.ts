import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { isMultipart } from '../body.js';
import { faultOf, phaseOf, type ScriptedTask, scriptOf, taskStore } from '../task-script.js';
import { startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';

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
export const VIDEO_FILE = readFileSync(new URL('../../fixtures/video/sample.mp4', import.meta.url));

interface SoraTask {
  model: string;
  prompt: string;
  seconds: string;
  size: string;
  deleted: boolean;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const openAiError = (res: ServerResponse, status: number, message: string, code: string | null, type: string) =>
  send(res, status, { error: { message, type, param: null, code } });

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

/** The finished file, with `Range: bytes=a-b` answered 206 as OpenAI's file store does. */
function sendFile(res: ServerResponse, range: string | undefined) {
  const match = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
  if (!match) {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': VIDEO_FILE.length, 'accept-ranges': 'bytes' });
    res.end(VIDEO_FILE);
    return;
  }
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), VIDEO_FILE.length - 1) : VIDEO_FILE.length - 1;
  res.writeHead(206, {
    'content-type': 'video/mp4',
    'content-length': end - start + 1,
    'content-range': `bytes ${start}-${end}/${VIDEO_FILE.length}`,
    'accept-ranges': 'bytes',
  });
  res.end(VIDEO_FILE.subarray(start, end + 1));
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
  const task: ScriptedTask<SoraTask> = {
    id: `video_${randomBytes(12).toString('hex')}`,
    script: scriptOf(prompt),
    fetches: 0,
    submittedAt: Date.now(),
    payload: {
      model: typeof fields.model === 'string' ? fields.model : 'sora-2',
      prompt,
      seconds,
      size: typeof fields.size === 'string' ? fields.size : '720x1280',
      deleted: false,
    },
  };
  taskStore<SoraTask>(scope).set(task.id, task);
  return send(res, 200, videoJson(task));
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
      return send(res, 200, { id: task.id, object: 'video.deleted', deleted: true });
    }
    if (request.method !== 'GET') return openAiError(res, 405, 'Method not allowed', null, 'invalid_request_error');
    if (match![2]) {
      if (phaseOf(task).state !== 'done') {
        return openAiError(res, 404, 'Video content is not available yet', 'not_found', 'invalid_request_error');
      }
      return sendFile(res, request.headers.range);
    }
    task.fetches += 1;
    const fault = faultOf(task);
    if (fault === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>upstream proxy error</html>');
      return;
    }
    if (fault === 'error500') return openAiError(res, 500, 'The server had an error', null, 'server_error');
    return send(res, 200, videoJson(task));
  });
  return mock;
}
