import type { Provider, VideoFunction } from '../../provider.js';
import { sendUpstream } from '../../send.js';
import { wholeResponse } from '../refusal-in-body.js';
import { joinUrl } from '../task-call.js';
import { klingKeyParts, klingToken } from './jwt.js';
import { type KlingAction, klingAction, klingUnsupported, toKlingBody } from './request.js';
import { klingError, readKlingPoll, readKlingSubmit } from './response.js';

const SUBMIT_PATH = /\/v1\/videos\/(text2video|image2video)$/;

/**
 * Kling polls a task under the endpoint that made it (`/v1/videos/image2video/{id}` for an image2video task), but
 * its submit answer does not say which that was. The upstream id therefore carries it: `image2video:<task_id>`.
 * `open` is the one place that sees both the submit's URL and its answer, so it writes the prefix there; ids
 * without one (none are made so) are polled as text2video.
 */
export function klingTaskRef(upstreamId: string): { action: KlingAction; taskId: string } {
  const colon = upstreamId.indexOf(':');
  const action = upstreamId.slice(0, colon);
  if (colon > 0 && (action === 'text2video' || action === 'image2video')) {
    return { action, taskId: upstreamId.slice(colon + 1) };
  }
  return { action: 'text2video', taskId: upstreamId };
}

/** Kling's answer to a submit, its `data.task_id` made `<action>:<task_id>` (any other answer as it came). */
function withActionInTaskId(text: string, action: string): string {
  try {
    const json = JSON.parse(text) as { code?: number; data?: { task_id?: unknown } };
    if (json.code === 0 && json.data && typeof json.data.task_id === 'string') {
      json.data.task_id = `${action}:${json.data.task_id}`;
      return JSON.stringify(json);
    }
  } catch {
    // not JSON: readSubmit sees it as it is
  }
  return text;
}

export const klingVideo: VideoFunction = {
  unsupported: (request) => klingUnsupported(request),
  // The family's Kling adaptor estimates no ratios: a Kling task costs the model's price per call (an operator
  // prices modes and lengths as separate models or through the price table, as in the family).
  ratios: () => ({}),
  submit: (channel, request, upstreamModel) => ({
    method: 'POST',
    url: joinUrl(channel.baseUrl, `/v1/videos/${klingAction(request)}`),
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(toKlingBody(request, upstreamModel)),
  }),
  readSubmit: readKlingSubmit,
  poll: (channel, upstreamId) => {
    const { action, taskId } = klingTaskRef(upstreamId);
    return {
      method: 'GET',
      url: joinUrl(channel.baseUrl, `/v1/videos/${action}/${encodeURIComponent(taskId)}`),
      headers: { accept: 'application/json' },
    };
  },
  readPoll: readKlingPoll,
};

/**
 * Kling (type 50), video only. The key is `AccessKey|SecretKey`; every call (submits and polls) carries a fresh
 * HS256 JWT made here, so the engine never handles Kling's token.
 */
export const klingProvider: Provider = {
  functions: { video: klingVideo },
  error: klingError,
  async open(call, channel, options) {
    const { accessKey, secretKey } = klingKeyParts(channel.key);
    const headers = { ...call.headers, authorization: `Bearer ${klingToken(accessKey, secretKey)}` };
    const response = await sendUpstream({ ...call, headers }, options);
    const submit = call.method === 'POST' ? SUBMIT_PATH.exec(call.url.split('?')[0] ?? '') : null;
    if (!submit || response.statusCode < 200 || response.statusCode >= 300) return response;
    const text = await response.body.text();
    const contentType = String(response.headers['content-type'] ?? 'application/json');
    return wholeResponse(response.statusCode, withActionInTaskId(text, submit[1]!), contentType);
  },
};
