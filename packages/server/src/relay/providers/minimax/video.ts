import { channelType } from '@gateway/shared';
import type { VideoFunction } from '../../provider.js';
import type { RuntimeChannel } from '../../types.js';
import type { VideoImage, VideoProgress, VideoRequest } from '../../video-types.js';
import { wholeResponse } from '../refusal-in-body.js';

/** What a Hailuo model makes (the family's table, relay/channel/task/hailuo). */
interface HailuoModel {
  durations: number[];
  resolutions: string[];
  defaultResolution: string;
  /** Whether the model takes a first frame: never (text only), optionally, or only with one (image to video). */
  firstFrame: 'never' | 'optional' | 'required';
  lastFrame: boolean;
  /** S2V-01 makes a video of a subject shown in a reference image, and only that. */
  subject: boolean;
  /** The Hailuo 02 / 2.3 generation makes 1080P as 6-second videos only. */
  fullHdSixOnly: boolean;
}

const hailuo = (
  durations: number[],
  resolutions: string[],
  defaultResolution: string,
  rest: Partial<HailuoModel> = {},
) => ({
  durations,
  resolutions,
  defaultResolution,
  firstFrame: 'optional' as const,
  lastFrame: false,
  subject: false,
  fullHdSixOnly: false,
  ...rest,
});

const MODELS: Record<string, HailuoModel> = {
  'MiniMax-Hailuo-2.3': hailuo([6, 10], ['768P', '1080P'], '768P', { fullHdSixOnly: true }),
  'MiniMax-Hailuo-2.3-Fast': hailuo([6, 10], ['768P', '1080P'], '768P', {
    fullHdSixOnly: true,
    firstFrame: 'required',
  }),
  'MiniMax-Hailuo-02': hailuo([6, 10], ['512P', '768P', '1080P'], '768P', { fullHdSixOnly: true, lastFrame: true }),
  'T2V-01-Director': hailuo([6], ['768P', '1080P'], '768P', { firstFrame: 'never' }),
  'T2V-01': hailuo([6], ['720P'], '720P', { firstFrame: 'never' }),
  'I2V-01-Director': hailuo([6], ['720P', '1080P'], '720P', { firstFrame: 'required' }),
  'I2V-01-live': hailuo([6], ['720P', '1080P'], '720P', { firstFrame: 'required' }),
  'I2V-01': hailuo([6], ['720P', '1080P'], '720P', { firstFrame: 'required' }),
  'S2V-01': hailuo([6], ['720P'], '720P', { firstFrame: 'never', subject: true }),
};
/** A model the table does not name: the family's fallback (6 seconds at 720P). */
const UNKNOWN = hailuo([6], ['720P'], '720P');
/** MiniMax-H3 is the v2 API (`/v2/video_generation`, another body): not this endpoint's. */
const V2_MODELS = ['MiniMax-H3'];
const DEFAULT_SECONDS = 6;

const modelOf = (model: string): HailuoModel => MODELS[model] ?? UNKNOWN;

function base(channel: RuntimeChannel): string {
  const url = channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://api.minimax.chat';
  return url.replace(/\/+$/, '');
}

const authorization = (channel: RuntimeChannel) => ({ authorization: `Bearer ${channel.key}` });

/** A size as Hailuo's resolution label, by the line count it names (the family reads it so); null when none fits. */
function sizeResolution(size: string): string | null {
  for (const lines of ['1080', '768', '720', '512']) if (size.includes(lines)) return `${lines}P`;
  return null;
}

interface HailuoSettings {
  seconds: number;
  /** null: a size that names no Hailuo resolution. */
  resolution: string | null;
}

/** `metadata` (Hailuo's own names) wins over the common fields, as the family lays it over the body. */
function settingsOf(request: VideoRequest, config: HailuoModel): HailuoSettings {
  const metadata = request.metadata;
  const seconds = typeof metadata.duration === 'number' ? metadata.duration : (request.seconds ?? DEFAULT_SECONDS);
  let resolution: string | null = config.defaultResolution;
  if (typeof metadata.resolution === 'string' && metadata.resolution) resolution = metadata.resolution.toUpperCase();
  else if (request.resolution) resolution = request.resolution.toUpperCase();
  else if (request.size) resolution = sizeResolution(request.size);
  return { seconds, resolution };
}

const imagesOf = (request: VideoRequest, role: VideoImage['role']) => request.images.filter((i) => i.role === role);

/** Hailuo takes an image as a public URL or a base64 data URL: bytes become the latter. */
function imageValue(image: VideoImage): string {
  if (image.bytes) return `data:${image.mimeType ?? 'image/png'};base64,${image.bytes.toString('base64')}`;
  return image.url ?? '';
}

function unsupported(request: VideoRequest, model: string): string | null {
  if (V2_MODELS.includes(model)) return 'model';
  const config = modelOf(model);
  const { seconds, resolution } = settingsOf(request, config);
  if (!config.durations.includes(seconds)) return 'seconds';
  if (!resolution || !config.resolutions.includes(resolution)) return request.resolution ? 'resolution' : 'size';
  if (config.fullHdSixOnly && resolution === '1080P' && seconds !== 6) return 'seconds';
  // Hailuo's frame follows the first image; it has no aspect ratio, seed or negative prompt to set.
  if (request.aspectRatio) return 'aspect_ratio';
  if (request.seed !== null) return 'seed';
  if (request.negativePrompt) return 'negative_prompt';
  const first = imagesOf(request, 'first_frame');
  const last = imagesOf(request, 'last_frame');
  const references = imagesOf(request, 'reference');
  if (first.length > 1 || (first.length && config.firstFrame === 'never')) return 'image';
  if (!first.length && config.firstFrame === 'required') return 'image';
  if (last.length > 1 || (last.length && (!config.lastFrame || !first.length))) return 'last_frame';
  if (config.subject ? references.length !== 1 : references.length > 0) return 'reference_image';
  return null;
}

function body(request: VideoRequest, model: string): Record<string, unknown> {
  const config = modelOf(model);
  const { seconds, resolution } = settingsOf(request, config);
  const payload: Record<string, unknown> = { model, prompt: request.prompt, duration: seconds, resolution };
  const [first] = imagesOf(request, 'first_frame');
  const [last] = imagesOf(request, 'last_frame');
  const references = imagesOf(request, 'reference');
  if (first) payload.first_frame_image = imageValue(first);
  if (last) payload.last_frame_image = imageValue(last);
  if (references.length) payload.subject_reference = [{ type: 'character', image: references.map(imageValue) }];
  // prompt_optimizer, fast_pretreatment, callback_url, aigc_watermark… as the client named them (the family's way).
  return { ...payload, ...request.metadata };
}

interface BaseResp {
  status_code?: unknown;
  status_msg?: unknown;
}

/** MiniMax's envelope: `base_resp.status_code` 0 is success; anything else is its refusal, in its words. */
function refusalOf(baseResp: BaseResp | undefined): string | null {
  if (!baseResp || typeof baseResp !== 'object') return null;
  const code = Number(baseResp.status_code ?? 0);
  if (code === 0) return null;
  const message = typeof baseResp.status_msg === 'string' && baseResp.status_msg ? baseResp.status_msg : 'refused';
  return `${message} (${code})`;
}

/** Where a finished task's file is asked for: relative to the channel's base URL, which `readPoll` does not see. */
const retrievePath = (fileId: string) => `/v1/files/retrieve?file_id=${encodeURIComponent(fileId)}`;

function readPoll(json: unknown, upstreamId: string): VideoProgress {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('Hailuo task answer is not an object');
  const task = json as { task_id?: unknown; status?: unknown; file_id?: unknown; base_resp?: BaseResp };
  const refusal = refusalOf(task.base_resp);
  const id = typeof task.task_id === 'string' && task.task_id ? task.task_id : upstreamId;
  // A failed task carries its reason in base_resp; a refusal without a status (rate limit, key) says nothing of it.
  if (task.status === 'Fail')
    return { upstreamId: id, status: 'failed', progress: 100, reason: refusal ?? 'task failed' };
  if (typeof task.status !== 'string')
    throw new Error(`Hailuo task answer has no status${refusal ? `: ${refusal}` : ''}`);
  switch (task.status) {
    case 'Preparing':
    case 'Queueing':
      return { upstreamId: id, status: 'queued', progress: 0 };
    case 'Processing':
      return { upstreamId: id, status: 'in_progress', progress: 0 };
    case 'Success': {
      const fileId = typeof task.file_id === 'string' || typeof task.file_id === 'number' ? String(task.file_id) : '';
      return { upstreamId: id, status: 'completed', progress: 100, ...(fileId ? { url: retrievePath(fileId) } : {}) };
    }
    default:
      throw new Error(`Hailuo task answer has an unknown status: ${task.status}`);
  }
}

/** MiniMax refusals that mean the channel's key: said as a 401, so the channel's credentials are what failed. */
const KEY_REFUSALS = [1004, 2049];

/**
 * MiniMax Hailuo video (type 35, beside its OpenAI-compatible chat): `POST /v1/video_generation` (Bearer) answers
 * `{task_id, base_resp}` (a non-zero `status_code` on a 2xx answer is a refusal); `GET /v1/query/video_generation?
 * task_id=` answers a status (Preparing, Queueing, Processing, Success, Fail) and, at the end, a `file_id`.
 *
 * The file takes two more calls: `GET /v1/files/retrieve?file_id=` (Bearer) answers `file.download_url`, a signed
 * URL that is then fetched without the key (`content`); the poll reports the retrieve path.
 * Billing: the family prices a Hailuo task per video (no ratios), whatever its length or resolution.
 */
export const minimaxVideo: VideoFunction = {
  unsupported,
  ratios: () => ({}),
  submit: (channel, request, model) => ({
    method: 'POST',
    url: `${base(channel)}/v1/video_generation`,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...authorization(channel) },
    body: JSON.stringify(body(request, model)),
  }),
  readSubmit(json) {
    const answer = (json ?? {}) as { task_id?: unknown; base_resp?: BaseResp };
    const refusal = refusalOf(answer.base_resp);
    if (refusal) return { refused: refusal };
    if (typeof answer.task_id === 'string' && answer.task_id) return { upstreamId: answer.task_id };
    return { refused: 'Hailuo answered without a task_id' };
  },
  poll: (channel, upstreamId) => ({
    method: 'GET',
    url: `${base(channel)}/v1/query/video_generation?task_id=${encodeURIComponent(upstreamId)}`,
    headers: { accept: 'application/json', ...authorization(channel) },
  }),
  readPoll,
  async content(channel, _upstreamId, url, open) {
    if (!url?.startsWith('/v1/files/retrieve')) throw new Error('the Hailuo task named no file');
    const retrieved = await open({
      method: 'GET',
      url: `${base(channel)}${url}`,
      headers: { accept: 'application/json', ...authorization(channel) },
    });
    const text = await retrieved.body.text();
    if (retrieved.statusCode < 200 || retrieved.statusCode >= 300) return wholeResponse(retrieved.statusCode, text);
    let answer: { file?: { download_url?: unknown }; base_resp?: BaseResp } = {};
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      return wholeResponse(502, text, 'text/plain');
    }
    const refusal = refusalOf(answer.base_resp);
    if (refusal) return wholeResponse(KEY_REFUSALS.includes(Number(answer.base_resp?.status_code)) ? 401 : 502, text);
    const downloadUrl = answer.file?.download_url;
    if (typeof downloadUrl !== 'string' || !downloadUrl) return wholeResponse(502, text);
    // A signed URL on MiniMax's storage: it carries its own authority, and the key must not travel there.
    return open({ method: 'GET', url: downloadUrl, headers: { accept: '*/*' } });
  },
};
