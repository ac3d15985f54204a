import type { Provider, VideoFunction } from '../../provider.js';
import { sendUpstream } from '../../send.js';
import { wholeResponse } from '../refusal-in-body.js';
import { joinUrl } from '../task-call.js';
import { jimengUnsupported, toJimengBody } from './request.js';
import { JIMENG_OK, jimengError, readJimengPoll, readJimengSubmit } from './response.js';
import { volcengineSignature } from './sign.js';

const VERSION = '2022-08-31';
const SUBMIT_ACTION = 'CVSync2AsyncSubmitTask';
const actionUrl = (baseUrl: string, action: string) => joinUrl(baseUrl, `/?Action=${action}&Version=${VERSION}`);

/**
 * Jimeng's GetResult names the task's req_key beside its id, and the req_key is not the model name (a 3.0 model
 * runs a text, first-frame or first-and-last-frame key by the frames given). The upstream id therefore carries it:
 * `<req_key>:<task_id>`, written by `open`, the one place that sees both the submit's body and its answer. An id
 * without one is polled under the model's own name.
 */
export function jimengTaskRef(upstreamId: string, upstreamModel: string): { reqKey: string; taskId: string } {
  const colon = upstreamId.indexOf(':');
  if (colon > 0) return { reqKey: upstreamId.slice(0, colon), taskId: upstreamId.slice(colon + 1) };
  return { reqKey: upstreamModel, taskId: upstreamId };
}

/** Jimeng's answer to a submit, its `data.task_id` made `<req_key>:<task_id>` (any other answer as it came). */
function withReqKeyInTaskId(text: string, requestBody: string): string {
  try {
    const json = JSON.parse(text) as { code?: number; data?: { task_id?: unknown } };
    const reqKey = (JSON.parse(requestBody) as { req_key?: unknown }).req_key;
    if (json.code === JIMENG_OK && json.data && typeof json.data.task_id === 'string' && typeof reqKey === 'string') {
      json.data.task_id = `${reqKey}:${json.data.task_id}`;
      return JSON.stringify(json);
    }
  } catch {
    // not JSON: readSubmit sees it as it is
  }
  return text;
}

export const jimengVideo: VideoFunction = {
  unsupported: (request, upstreamModel) => jimengUnsupported(request, upstreamModel),
  // The family's Jimeng adaptor estimates no ratios: a task costs the model's price per call.
  ratios: () => ({}),
  submit: (channel, request, upstreamModel) => ({
    method: 'POST',
    url: actionUrl(channel.baseUrl, SUBMIT_ACTION),
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(toJimengBody(request, upstreamModel)),
  }),
  readSubmit: readJimengSubmit,
  poll: (channel, upstreamId, upstreamModel) => {
    const { reqKey, taskId } = jimengTaskRef(upstreamId, upstreamModel);
    return {
      method: 'POST',
      url: actionUrl(channel.baseUrl, 'CVSync2AsyncGetResult'),
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ req_key: reqKey, task_id: taskId }),
    };
  },
  readPoll: readJimengPoll,
};

/**
 * Jimeng (type 51), Volcengine's visual API, video only. The key is `AK|SK`; every call is signed (Volcengine
 * signature V4) here, when it is sent, over the body as finally sent.
 */
export const jimengProvider: Provider = {
  functions: { video: jimengVideo },
  error: jimengError,
  async open(call, channel, options) {
    const [accessKey = '', secretKey = ''] = channel.key.split('|').map((part) => part.trim());
    const body = typeof call.body === 'string' ? call.body : (call.body?.toString('utf8') ?? '');
    const signed = volcengineSignature({
      accessKey,
      secretKey,
      method: call.method,
      url: call.url,
      contentType: call.headers['content-type'] ?? 'application/json',
      body,
    });
    const response = await sendUpstream({ ...call, headers: { ...call.headers, ...signed } }, options);
    const submit = call.method === 'POST' && new URL(call.url).searchParams.get('Action') === SUBMIT_ACTION;
    if (!submit || response.statusCode < 200 || response.statusCode >= 300) return response;
    const text = await response.body.text();
    const contentType = String(response.headers['content-type'] ?? 'application/json');
    return wholeResponse(response.statusCode, withReqKeyInTaskId(text, body), contentType);
  },
};
