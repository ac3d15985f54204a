import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { phaseOf, type ScriptedTask, taskStore } from '../task-script.js';
import { sendJsonBody, startVendorServer, type VendorMock } from './vendor-server.js';
import { answeredFault, answeredFileGet, scriptedTask } from './video-mock-kit.js';

export const KLING_ACCESS_KEY = 'mock-kling-access-key';
export const KLING_SECRET_KEY = 'mock-kling-secret-key';
export const KLING_KEY = `${KLING_ACCESS_KEY}|${KLING_SECRET_KEY}`;

interface KlingTaskPayload {
  action: 'text2video' | 'image2video';
  duration: string;
}

let requestCounter = 0;
const requestId = () => `mock-kling-request-${++requestCounter}`;

/** Kling's envelope; its errors use the same one with a non-zero `code`. */
const envelope = (code: number, message: string, data?: unknown) => ({
  code,
  message,
  request_id: requestId(),
  ...(data === undefined ? {} : { data }),
});

/**
 * Why the bearer token is not Kling's, or null when it is: an HS256 JWT verified here with node:crypto (not with the
 * gateway's code), issued by the known access key, signed with its secret, inside its nbf…exp window. The codes are
 * Kling's documented 100x family.
 */
function tokenProblem(authorization: string | undefined): { code: number; message: string } | null {
  if (!authorization) return { code: 1001, message: 'Authorization is empty' };
  const token = /^Bearer (.+)$/.exec(authorization)?.[1];
  const parts = token?.split('.');
  if (parts?.length !== 3) return { code: 1002, message: 'Authorization is invalid' };
  const [header, payload, signature] = parts as [string, string, string];
  let claims: { iss?: string; exp?: number; nbf?: number };
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
    if (head.alg !== 'HS256') return { code: 1002, message: 'Authorization is invalid' };
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { code: 1002, message: 'Authorization is invalid' };
  }
  if (claims.iss !== KLING_ACCESS_KEY) return { code: 1000, message: 'Authentication failed' };
  const expected = createHmac('sha256', KLING_SECRET_KEY).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { code: 1000, message: 'Authentication failed' };
  }
  const now = Date.now() / 1000;
  if (typeof claims.nbf !== 'number' || claims.nbf > now)
    return { code: 1003, message: 'Authorization is not yet valid' };
  if (typeof claims.exp !== 'number' || claims.exp < now) return { code: 1004, message: 'Authorization has expired' };
  return null;
}

/** Kling's task view at the task's current phase (the prompt's marker decides it, see task-script.ts). */
function taskData(mock: VendorMock, task: ScriptedTask<KlingTaskPayload>) {
  const phase = phaseOf(task);
  const times = { created_at: task.submittedAt, updated_at: Date.now() };
  const base = { task_id: task.id, ...times };
  switch (phase.state) {
    case 'queued':
      return { ...base, task_status: 'submitted', task_status_msg: '' };
    case 'running':
      return { ...base, task_status: 'processing', task_status_msg: '' };
    case 'failed':
      return { ...base, task_status: 'failed', task_status_msg: 'Failure to pass the risk control system' };
    case 'done': {
      const videos =
        task.script === 'no-url'
          ? []
          : [{ id: `video-${task.id}`, url: `${mock.baseUrl}/files/${task.id}.mp4`, duration: task.payload.duration }];
      return { ...base, task_status: 'succeed', task_status_msg: '', task_result: { videos } };
    }
  }
}

/**
 * Kling's video API: `POST /v1/videos/{text2video|image2video}` answers `{code:0, data:{task_id, task_status}}`;
 * `GET /v1/videos/{action}/{task_id}` answers the task under the endpoint that made it (another endpoint: 404 with
 * Kling's 1203-style "resource not found"). Every call needs a valid JWT (401, codes 1000–1004). `[refuse]` in the
 * prompt: 400 with code 1301 (content security). The finished file is served here, at `/files/<task_id>.mp4`.
 */
export async function startKlingVideoMock(): Promise<VendorMock> {
  let mock: VendorMock | undefined;
  mock = await startVendorServer((request, res) => {
    const self = mock!;
    const tasks = taskStore<KlingTaskPayload>(self.baseUrl);
    const notFound = () => sendJsonBody(res, 404, envelope(1203, 'resource not found'));
    if (answeredFileGet(request, res, tasks, notFound)) return;
    const problem = tokenProblem(request.headers.authorization);
    if (problem) return sendJsonBody(res, 401, envelope(problem.code, problem.message));
    const submit = /^\/v1\/videos\/(text2video|image2video)$/.exec(request.path);
    if (request.method === 'POST' && submit)
      return submitTask(res, tasks, submit[1] as KlingTaskPayload['action'], request.body);
    const poll = /^\/v1\/videos\/(text2video|image2video)\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && poll) {
      const task = tasks.get(decodeURIComponent(poll[2]!));
      if (!task || task.payload.action !== poll[1]) return sendJsonBody(res, 404, envelope(1203, 'task not found'));
      if (answeredFault(res, task, () => sendJsonBody(res, 500, envelope(5000, 'Server internal error')))) return;
      return sendJsonBody(res, 200, envelope(0, 'SUCCEED', taskData(self, task)));
    }
    sendJsonBody(res, 404, envelope(1203, 'resource not found'));
  });
  return mock;
}

/** Kling's 400 answer to a submit it will not take, or null: its checks on the body, then `[refuse]` in the prompt. */
function submitRefusal(action: KlingTaskPayload['action'], body: Record<string, unknown>, prompt: string) {
  if (action === 'image2video' && !body.image && !body.image_tail) {
    return envelope(1201, 'image or image_tail is required');
  }
  if (action === 'text2video' && !prompt) return envelope(1201, 'prompt is required');
  if (body.duration !== undefined && body.duration !== '5' && body.duration !== '10') {
    return envelope(1201, 'duration value is invalid');
  }
  if (prompt.includes('[refuse]')) return envelope(1301, 'Trigger the content security policy of the platform');
  return null;
}

function submitTask(
  res: ServerResponse,
  tasks: Map<string, ScriptedTask<KlingTaskPayload>>,
  action: KlingTaskPayload['action'],
  raw: unknown,
): void {
  const body = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  const refusal = submitRefusal(action, body, prompt);
  if (refusal) {
    sendJsonBody(res, 400, refusal);
    return;
  }
  const id = `Ckl${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const now = Date.now();
  tasks.set(
    id,
    scriptedTask(id, prompt, { action, duration: typeof body.duration === 'string' ? body.duration : '5' }, now),
  );
  sendJsonBody(
    res,
    200,
    envelope(0, 'SUCCEED', { task_id: id, task_status: 'submitted', created_at: now, updated_at: now }),
  );
}
