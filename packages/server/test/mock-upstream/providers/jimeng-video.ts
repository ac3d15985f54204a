import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { phaseOf, type ScriptedTask, taskStore } from '../task-script.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest } from './vendor-server.js';
import { answeredFault, answeredFileGet, ENVOY_RESET, scriptedTask } from './video-mock-kit.js';

export const JIMENG_ACCESS_KEY = 'AKLTmockJimengAccessKey';
export const JIMENG_SECRET_KEY = 'mockJimengSecretKey==';
export const JIMENG_KEY = `${JIMENG_ACCESS_KEY}|${JIMENG_SECRET_KEY}`;

const VERSION = '2022-08-31';
/** The req_keys this mock runs (the family's presets and the 3.0 variants its mapping produces). */
const REQ_KEYS = new Set([
  'jimeng_vgfm_t2v_l20',
  'jimeng_vgfm_i2v_l20',
  'jimeng_t2v_v30',
  'jimeng_t2v_v30_1080p',
  'jimeng_i2v_first_v30',
  'jimeng_i2v_first_v30_1080',
  'jimeng_i2v_first_tail_v30',
  'jimeng_i2v_first_tail_v30_1080',
  'jimeng_ti2v_v30_pro',
]);

interface JimengTaskPayload {
  reqKey: string;
}

let requestCounter = 0;
const requestId = () => `2026mockjimeng${String(++requestCounter).padStart(6, '0')}`;

/** The visual API's envelope (its refusals carry their code in both `code` and `status`). */
const visual = (code: number, message: string, data: unknown = null) => ({
  code,
  data,
  message,
  request_id: requestId(),
  status: code,
  time_elapsed: '12.3ms',
});

/** The OpenAPI gateway's own refusal (before the visual API sees the call): a key or signature problem. */
const gatewayError = (action: string, code: string, codeN: number, message: string) => ({
  ResponseMetadata: {
    RequestId: requestId(),
    Action: action,
    Version: VERSION,
    Service: 'cv',
    Region: 'cn-north-1',
    Error: { CodeN: codeN, Code: code, Message: message },
  },
});

const sha256Hex = (data: string) => createHash('sha256').update(data).digest('hex');
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Why the request's signature is not Volcengine's V4, or null when it is. Written here from the scheme, not with
 * the gateway's signer: the canonical request is rebuilt from what arrived (method, path, the sorted query, the
 * headers the request says it signed, the body's hash, which must match X-Content-Sha256), signed with the secret
 * of the credential's access key, and X-Date must be within 15 minutes.
 */
function signatureProblem(request: VendorRequest): { code: string; codeN: number; message: string } | null {
  const match =
    /^HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      request.headers.authorization ?? '',
    );
  if (!match) return { code: 'MissingAuthenticationToken', codeN: 100001, message: 'The request is not signed.' };
  const [, accessKey, shortDate, region, service, signedHeaders, signature] = match as unknown as string[];
  if (accessKey !== JIMENG_ACCESS_KEY) {
    return { code: 'InvalidAccessKey', codeN: 100009, message: `The AccessKey ${accessKey} is invalid.` };
  }
  const xDate = request.headers['x-date'] ?? '';
  const when = Date.parse(xDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!(Math.abs(Date.now() - when) <= 15 * 60_000) || xDate.slice(0, 8) !== shortDate) {
    return { code: 'SignatureExpired', codeN: 100011, message: 'The request signature has expired.' };
  }
  if (request.headers['x-content-sha256'] !== sha256Hex(request.raw)) {
    return { code: 'SignatureDoesNotMatch', codeN: 100010, message: 'The payload hash does not match the body.' };
  }
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-date')) {
    return { code: 'SignatureDoesNotMatch', codeN: 100010, message: 'Host and X-Date must be signed.' };
  }
  const query = Object.entries(request.query)
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .sort()
    .join('&');
  const canonical = [
    request.method,
    request.path,
    query,
    names.map((name) => `${name}:${(request.headers[name] ?? '').trim()}\n`).join(''),
    signedHeaders,
    request.headers['x-content-sha256'],
  ].join('\n');
  const scope = `${shortDate}/${region}/${service}/request`;
  const toSign = `HMAC-SHA256\n${xDate}\n${scope}\n${sha256Hex(canonical)}`;
  let key = createHmac('sha256', JIMENG_SECRET_KEY).update(shortDate!).digest();
  for (const part of [region!, service!, 'request']) key = createHmac('sha256', key).update(part).digest();
  const expected = createHmac('sha256', key).update(toSign).digest();
  const given = Buffer.from(signature!, 'hex');
  if (region !== 'cn-north-1' || service !== 'cv' || !timingSafeEqual(given, expected)) {
    return {
      code: 'SignatureDoesNotMatch',
      codeN: 100010,
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  }
  return null;
}

/** The task's answer at its current phase (the prompt's marker decides it, see task-script.ts). */
function taskData(mock: VendorMock, task: ScriptedTask<JimengTaskPayload>) {
  const phase = phaseOf(task);
  const view = (status: string, video_url = '') => ({
    binary_data_base64: [],
    image_urls: null,
    resp_data: '',
    status,
    video_url,
  });
  switch (phase.state) {
    case 'queued':
      return view('in_queue');
    case 'running':
      return view('generating');
    case 'failed':
      return view('not_found');
    case 'done':
      return view('done', task.script === 'no-url' ? '' : `${mock.baseUrl}/files/${task.id}.mp4`);
  }
}

/**
 * Volcengine's visual API for Jimeng: `POST /?Action=CVSync2AsyncSubmitTask&Version=2022-08-31` with `{req_key,
 * prompt, …}` answers `{code:10000, data:{task_id}}`; `…CVSync2AsyncGetResult` with `{req_key, task_id}` answers the
 * task (`in_queue`, `generating`, `done` with `video_url`, `not_found` for `[fail]`). Every call must carry a valid
 * signature V4 (else the gateway's 401 `ResponseMetadata.Error`); the req_key of a poll must be the task's.
 * `[refuse]` in the prompt: 400 with code 50412 (text risk). The finished file is served at `/files/<task_id>.mp4`.
 */
export async function startJimengVideoMock(): Promise<VendorMock> {
  let mock: VendorMock | undefined;
  mock = await startVendorServer((request, res) => {
    const self = mock!;
    const tasks = taskStore<JimengTaskPayload>(self.baseUrl);
    if (answeredFileGet(request, res, tasks, () => sendJsonBody(res, 404, visual(50404, 'Not Found')))) return;
    const action = request.query.Action ?? '';
    const problem = signatureProblem(request);
    if (problem) return sendJsonBody(res, 401, gatewayError(action, problem.code, problem.codeN, problem.message));
    if (request.method !== 'POST' || request.path !== '/' || request.query.Version !== VERSION) {
      return sendJsonBody(
        res,
        404,
        gatewayError(action, 'InvalidActionOrVersion', 100008, 'Could not find operation.'),
      );
    }
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    if (action === 'CVSync2AsyncSubmitTask') return submitTask(res, tasks, body);
    if (action === 'CVSync2AsyncGetResult') return getResult(self, res, tasks, body);
    sendJsonBody(res, 404, gatewayError(action, 'InvalidActionOrVersion', 100008, 'Could not find operation.'));
  });
  return mock;
}

/** The visual API's 400 for a submit it will not take, or null. */
function submitRefusal(body: Record<string, unknown>) {
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  if (typeof body.req_key !== 'string' || !REQ_KEYS.has(body.req_key)) return visual(50400, 'Invalid Req Key');
  if (body.frames !== undefined && body.frames !== 121 && body.frames !== 241) return visual(50400, 'Invalid frames');
  if (body.image_urls && body.binary_data_base64) return visual(50400, 'Only one of image_urls and binary_data_base64');
  if (prompt.includes('[refuse]')) return visual(50412, 'Pre Text Risk Not Pass');
  return null;
}

function submitTask(
  res: ServerResponse,
  tasks: Map<string, ScriptedTask<JimengTaskPayload>>,
  body: Record<string, unknown>,
): void {
  const refusal = submitRefusal(body);
  if (refusal) {
    sendJsonBody(res, 400, refusal);
    return;
  }
  const id = `7${Date.now()}${String(requestCounter).padStart(6, '0')}`;
  tasks.set(id, scriptedTask(id, String(body.prompt ?? ''), { reqKey: String(body.req_key) }));
  sendJsonBody(res, 200, visual(10000, 'Success', { task_id: id }));
}

function getResult(
  mock: VendorMock,
  res: ServerResponse,
  tasks: Map<string, ScriptedTask<JimengTaskPayload>>,
  body: Record<string, unknown>,
): void {
  const task = tasks.get(String(body.task_id ?? ''));
  if (!task) {
    sendJsonBody(res, 200, visual(10000, 'Success', { status: 'not_found', video_url: '' }));
    return;
  }
  if (body.req_key !== task.payload.reqKey) {
    sendJsonBody(res, 400, visual(50400, 'Invalid Req Key'));
    return;
  }
  if (answeredFault(res, task, () => sendJsonBody(res, 500, visual(50500, 'Internal Error')), ENVOY_RESET)) return;
  sendJsonBody(res, 200, visual(10000, 'Success', taskData(mock, task)));
}
