import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { phaseOf, type ScriptedTask, taskStore } from '../task-script.js';
import { isRecord } from '../text.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';
import { answeredFault, ENVOY_RESET, scriptedTask, sendVideo } from './video-mock-kit.js';

/** The API key the mock accepts (`Authorization: Bearer …`). */
export const MINIMAX_VIDEO_KEY = 'eyJhbGciOiJSUzI1NiJ9.mock-minimax-key';
/** Signs the mock's download URLs, as MiniMax's storage signs its own: no key needed, but no forging either. */
const URL_SECRET = randomBytes(16);

const baseResp = (status_code: number, status_msg: string) => ({ base_resp: { status_code, status_msg } });

interface HailuoTask {
  model: string;
  fileId: string;
}

const sign = (fileId: string, expires: string) =>
  createHmac('sha256', URL_SECRET).update(`${fileId}:${expires}`).digest('hex');

function signatureValid(fileId: string, expires: string, signature: string): boolean {
  if (!(Number(expires) > Date.now() / 1000)) return false;
  const expected = Buffer.from(sign(fileId, expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * MiniMax Hailuo video, as its v1 API answers (HTTP 200 and `base_resp` for refusals too):
 * - `POST /v1/video_generation` (Bearer) → `{task_id, base_resp}`; a wrong key is `1004 login fail`, `[refuse]` in
 *   the prompt `1026` (sensitive input), a missing prompt or unknown field type `2013`.
 * - `GET /v1/query/video_generation?task_id=` → `{task_id, status, file_id?, base_resp}`, statuses Queueing,
 *   Processing, Success, Fail as task-script.ts unfolds them (`[garbage]` not JSON, `[500]` an HTTP 500).
 * - `GET /v1/files/retrieve?file_id=` (Bearer) → `{file:{…, download_url}, base_resp}`: the URL is signed and on
 *   this mock, `GET /download/{file_id}.mp4?Expires=&Signature=` answers the sample video without any key.
 */
export function startMinimaxVideoMock(): Promise<VendorMock> {
  let base = '';
  const scope = () => `minimax-video:${base}`;
  const tasks = () => taskStore<HailuoTask>(scope());
  const keyRefused = (request: VendorRequest, res: ServerResponse): boolean => {
    if (request.headers.authorization === `Bearer ${MINIMAX_VIDEO_KEY}`) return false;
    sendJsonBody(res, 200, baseResp(1004, 'login fail: Please carefully check the authorization header'));
    return true;
  };

  const submit = (request: VendorRequest, res: ServerResponse) => {
    const body = isRecord(request.body) ? request.body : {};
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    if (typeof body.model !== 'string' || !body.model)
      return sendJsonBody(res, 200, baseResp(2013, 'invalid params, model is required'));
    if (!prompt && !body.first_frame_image)
      return sendJsonBody(res, 200, baseResp(2013, 'invalid params, prompt is required'));
    if (body.duration !== undefined && typeof body.duration !== 'number') {
      return sendJsonBody(res, 200, baseResp(2013, 'invalid params, duration must be an integer'));
    }
    if (prompt.includes('[refuse]'))
      return sendJsonBody(res, 200, { task_id: '', ...baseResp(1026, 'input new_sensitive') });
    const id = String(Date.now()).slice(-9) + String(Math.floor(Math.random() * 1000)).padStart(3, '0');
    const task: ScriptedTask<HailuoTask> = scriptedTask(id, prompt, {
      model: body.model,
      fileId: String(200000000000000 + Math.floor(Math.random() * 1e9)),
    });
    tasks().set(id, task);
    sendJsonBody(res, 200, { task_id: id, ...baseResp(0, 'success') });
  };

  const query = (request: VendorRequest, res: ServerResponse) => {
    const task = tasks().get(request.query.task_id ?? '');
    if (!task) return sendJsonBody(res, 200, baseResp(2013, 'invalid params, task not found'));
    if (answeredFault(res, task, () => sendJsonBody(res, 500, baseResp(1000, 'unknown error')), ENVOY_RESET)) return;
    const phase = phaseOf(task);
    const answer = (status: string, extra: Record<string, unknown> = {}, resp = baseResp(0, 'success')) =>
      sendJsonBody(res, 200, { task_id: task.id, status, ...extra, ...resp });
    if (phase.state === 'queued') return answer('Queueing');
    if (phase.state === 'running') return answer('Processing');
    if (phase.state === 'failed')
      return answer('Fail', {}, baseResp(1026, 'video generation failed: output sensitive'));
    if (task.script === 'no-url') return answer('Success');
    answer('Success', { file_id: task.payload.fileId, video_width: 1366, video_height: 768 });
  };

  const retrieve = (request: VendorRequest, res: ServerResponse) => {
    const fileId = request.query.file_id ?? '';
    const task = [...tasks().values()].find((entry) => entry.payload.fileId === fileId);
    if (!task) return sendJsonBody(res, 200, { file: null, ...baseResp(1017, 'file not found') });
    const expires = String(Math.floor(Date.now() / 1000) + 9 * 3600);
    sendJsonBody(res, 200, {
      file: {
        file_id: Number(fileId),
        bytes: 0,
        created_at: Math.floor(task.submittedAt / 1000),
        filename: 'output.mp4',
        purpose: 'video_generation',
        download_url: `${base}/download/${fileId}.mp4?Expires=${expires}&Signature=${sign(fileId, expires)}`,
      },
      ...baseResp(0, 'success'),
    });
  };

  return startVendorServer((request, res) => {
    const download = /^\/download\/(\d+)\.mp4$/.exec(request.path);
    if (download && request.method === 'GET') {
      if (!signatureValid(download[1]!, request.query.Expires ?? '', request.query.Signature ?? '')) {
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code></Error>');
        return;
      }
      return sendVideo(res);
    }
    if (keyRefused(request, res)) return;
    if (request.path === '/v1/video_generation' && request.method === 'POST') return submit(request, res);
    if (request.path === '/v1/query/video_generation' && request.method === 'GET') return query(request, res);
    if (request.path === '/v1/files/retrieve' && request.method === 'GET') return retrieve(request, res);
    sendJsonBody(res, 404, baseResp(1000, `unknown path ${request.path}`));
  }).then((mock) => {
    base = mock.baseUrl;
    return mock;
  });
}
