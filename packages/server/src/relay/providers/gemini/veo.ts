import type { VideoImage, VideoProgress, VideoRequest } from '../../video-types.js';
import { parseSize } from '../video-shape.js';

/**
 * Google Veo as both of Google's hosts serve it (the Gemini API and Vertex AI): the same `predictLongRunning`
 * instances/parameters body, the same model bounds and the same billing. They differ in how an image may be given
 * (Vertex also reads `gs://` objects), in `seed` (the Gemini API refuses it; Google's own SDK will not send it there),
 * and in where the finished video is found in the operation (see the two readers below).
 */
export type VeoHost = 'gemini' | 'vertex';

/** Veo's default length when neither the client nor `metadata.durationSeconds` names one (the family's default too). */
export const VEO_DEFAULT_SECONDS = 8;
const DEFAULT_RESOLUTION = '720p';
/** Veo makes landscape or portrait, nothing else. */
const ASPECT_RATIOS = ['16:9', '9:16'];
/** Veo 3.1 takes up to three asset reference images. */
const MAX_REFERENCES = 3;

interface VeoModel {
  durations: number[];
  resolutions: string[];
  lastFrame: boolean;
  references: boolean;
  /** Veo 2 has no `resolution` parameter at all: 720p is all it makes. */
  resolutionParameter: boolean;
}

/** What a Veo generation can make, as Google documents it per generation (2, 3, 3.1). */
function veoModel(model: string): VeoModel {
  if (model.includes('veo-2')) {
    return {
      durations: [5, 6, 8],
      resolutions: ['720p'],
      lastFrame: false,
      references: false,
      resolutionParameter: false,
    };
  }
  if (model.includes('veo-3.1')) {
    return {
      durations: [4, 6, 8],
      resolutions: ['720p', '1080p', '4k'],
      lastFrame: true,
      references: true,
      resolutionParameter: true,
    };
  }
  return {
    durations: [4, 6, 8],
    resolutions: ['720p', '1080p'],
    lastFrame: false,
    references: false,
    resolutionParameter: true,
  };
}

/** `WIDTHxHEIGHT` as Veo's resolution label, by its longer side (as the family maps it). */
function sizeResolution(width: number, height: number): string {
  const longer = Math.max(width, height);
  if (longer >= 3840) return '4k';
  if (longer >= 1920) return '1080p';
  return '720p';
}

const metaNumber = (metadata: Record<string, unknown>, name: string): number | undefined =>
  typeof metadata[name] === 'number' ? (metadata[name] as number) : undefined;
const metaString = (metadata: Record<string, unknown>, name: string): string | undefined =>
  typeof metadata[name] === 'string' && metadata[name] ? (metadata[name] as string) : undefined;

/**
 * The length, resolution and aspect ratio the request asks for. `metadata` (the family's pass-through, Veo's own
 * parameter names) wins over the common fields, as it does in the family's billing; then `seconds`, `resolution`,
 * `aspectRatio`, and last `size`.
 */
export interface VeoSettings {
  seconds: number;
  resolution: string;
  /** Whether the client named a resolution (else Veo's default applies and none is sent). */
  resolutionAsked: boolean;
  aspectRatio: string | null;
}

export function veoSettings(request: VideoRequest): VeoSettings {
  const size = request.size ? parseSize(request.size) : null;
  const askedResolution =
    metaString(request.metadata, 'resolution') ??
    request.resolution ??
    (size ? sizeResolution(size.width, size.height) : undefined);
  let aspectRatio = metaString(request.metadata, 'aspectRatio') ?? request.aspectRatio;
  if (!aspectRatio && size && size.width !== size.height) aspectRatio = size.height > size.width ? '9:16' : '16:9';
  return {
    seconds: metaNumber(request.metadata, 'durationSeconds') ?? request.seconds ?? VEO_DEFAULT_SECONDS,
    resolution: (askedResolution ?? DEFAULT_RESOLUTION).toLowerCase(),
    resolutionAsked: askedResolution !== undefined,
    aspectRatio: aspectRatio ?? null,
  };
}

const imagesOf = (request: VideoRequest, role: VideoImage['role']) => request.images.filter((i) => i.role === role);

/** Whether Veo on this host can take the image as given: Veo reads bytes (and, on Vertex, Cloud Storage), no URL. */
function readableImage(image: VideoImage, host: VeoHost): boolean {
  if (image.bytes) return true;
  const url = image.url ?? '';
  if (url.startsWith('data:')) return dataUri(url) !== null;
  return host === 'vertex' && url.startsWith('gs://');
}

/** The request parameter Veo cannot honour on this host for this model, or null. */
export function veoUnsupported(request: VideoRequest, model: string, host: VeoHost): string | null {
  const bounds = veoModel(model);
  const settings = veoSettings(request);
  if (request.size) {
    const size = parseSize(request.size);
    // Veo has no square (or any other) frame: a size is honoured only as landscape or portrait.
    if (!size || size.width === size.height) return 'size';
  }
  if (settings.aspectRatio && !ASPECT_RATIOS.includes(settings.aspectRatio)) return 'aspect_ratio';
  if (!bounds.durations.includes(settings.seconds)) return 'seconds';
  if (!bounds.resolutions.includes(settings.resolution)) return request.resolution ? 'resolution' : 'size';
  // Google: 1080p and 4k are made only as 8-second videos.
  if (settings.resolution !== '720p' && settings.seconds !== 8) return 'seconds';
  if (host === 'gemini' && request.seed !== null) return 'seed';
  const first = imagesOf(request, 'first_frame');
  const last = imagesOf(request, 'last_frame');
  const references = imagesOf(request, 'reference');
  if (first.length > 1 || first.some((image) => !readableImage(image, host))) return 'image';
  // A last frame is an interpolation target: Veo needs the first frame with it.
  if (last.length > 1 || (last.length && (!bounds.lastFrame || first.length === 0))) return 'last_frame';
  if (last.some((image) => !readableImage(image, host))) return 'last_frame';
  if (references.length && (!bounds.references || references.length > MAX_REFERENCES)) return 'reference_image';
  if (references.some((image) => !readableImage(image, host))) return 'reference_image';
  return null;
}

/**
 * The family's Veo billing: the price is per second (`seconds`), and 4k costs more than 720p/1080p on Veo 3.1
 * (Google's prices: ×1.5 for 3.1, ×2.333333 for 3.1 fast); other resolutions and models keep ×1.
 */
export function veoRatios(request: VideoRequest, model: string): Record<string, number> {
  const { seconds, resolution } = veoSettings(request);
  let ratio = 1;
  if (resolution === '4k') {
    if (model.includes('3.1-fast-generate')) ratio = 2.333333;
    else if (model.includes('3.1')) ratio = 1.5;
  }
  return { seconds, resolution: ratio };
}

interface DataUri {
  mimeType: string;
  base64: string;
}

function dataUri(url: string): DataUri | null {
  const match = /^data:([^;,]*)(;[^,]*)?,(.*)$/s.exec(url);
  if (!match?.[2]?.includes('base64') || !match[3]) return null;
  return { mimeType: match[1] || 'image/png', base64: match[3] };
}

/** An uploaded file's type from its first bytes, when the client did not say. */
function sniffImageType(bytes: Buffer): string {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  return 'image/png';
}

/** A Cloud Storage object's type from its extension: Vertex wants `mimeType` beside a `gcsUri`. */
function gcsImageType(uri: string): string {
  const extension = uri.split('.').pop()?.toLowerCase();
  if (extension === 'png') return 'image/png';
  if (extension === 'webp') return 'image/webp';
  return 'image/jpeg';
}

/** Veo's image object: `{bytesBase64Encoded, mimeType}`, or on Vertex `{gcsUri, mimeType}` for a `gs://` object. */
function veoImage(image: VideoImage): Record<string, string> {
  if (image.bytes) {
    return {
      bytesBase64Encoded: image.bytes.toString('base64'),
      mimeType: image.mimeType ?? sniffImageType(image.bytes),
    };
  }
  const url = image.url ?? '';
  const data = dataUri(url);
  if (data) return { bytesBase64Encoded: data.base64, mimeType: data.mimeType };
  // `unsupported` let only a `gs://` object through otherwise (Vertex).
  return { gcsUri: url, mimeType: image.mimeType ?? gcsImageType(url) };
}

/** The `predictLongRunning` body: one instance (prompt, images) and the parameters, `metadata` laid over them. */
export function veoBody(request: VideoRequest, model: string, host: VeoHost): Record<string, unknown> {
  const settings = veoSettings(request);
  const instance: Record<string, unknown> = { prompt: request.prompt };
  const [first] = imagesOf(request, 'first_frame');
  const [last] = imagesOf(request, 'last_frame');
  const references = imagesOf(request, 'reference');
  if (first) instance.image = veoImage(first);
  if (last) instance.lastFrame = veoImage(last);
  if (references.length) {
    instance.referenceImages = references.map((image) => ({ image: veoImage(image), referenceType: 'asset' }));
  }
  const parameters: Record<string, unknown> = { durationSeconds: settings.seconds };
  if (settings.aspectRatio) parameters.aspectRatio = settings.aspectRatio;
  if (settings.resolutionAsked && veoModel(model).resolutionParameter) parameters.resolution = settings.resolution;
  if (request.negativePrompt) parameters.negativePrompt = request.negativePrompt;
  if (host === 'vertex') {
    // Vertex makes as many videos as asked (the family asks one); the Gemini API's default is one.
    parameters.sampleCount = 1;
    if (request.seed !== null) parameters.seed = request.seed;
  }
  // Veo's own parameters (personGeneration, generateAudio, enhancePrompt, storageUri…) as the client named them.
  return { instances: [instance], parameters: { ...parameters, ...request.metadata } };
}

/** The operation's name from a `predictLongRunning` answer. */
export function readOperationName(json: unknown): { upstreamId: string } | { refused: string } {
  const name = (json as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && name) return { upstreamId: name };
  return { refused: 'Veo answered without an operation name' };
}

/** The model a Veo operation belongs to: `…/models/{model}/operations/{id}`. */
export function operationModel(name: string): string | null {
  return /(?:^|\/)models\/([^/]+)\/operations\//.exec(name)?.[1] ?? null;
}

type Operation = Record<string, unknown> & {
  name?: unknown;
  done?: unknown;
  error?: { code?: unknown; message?: unknown };
  response?: Record<string, unknown>;
};

/**
 * Veo refuses to hand back what its safety filters caught: the operation is done, with no video and a count (inside
 * `generateVideoResponse` on the Gemini API, in the response itself on Vertex).
 */
function filteredReason(outer: Record<string, unknown>): string | null {
  const inner = outer.generateVideoResponse;
  const response = inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : outer;
  const count = Number(response.raiMediaFilteredCount ?? 0);
  if (!(count > 0)) return null;
  const reasons = Array.isArray(response.raiMediaFilteredReasons) ? response.raiMediaFilteredReasons : [];
  return reasons.length ? reasons.map(String).join('; ') : 'the video was filtered by Google’s safety filters';
}

/**
 * A long-running operation as our progress. Google reports no percentage, only `done`: 0 while running, 100 at the
 * end. An operation that is neither named nor says whether it is done is no answer at all (thrown, polled again).
 * `video` finds the finished file in the host's response, or null.
 */
function readOperation(
  json: unknown,
  upstreamId: string,
  video: (response: Record<string, unknown>) => string | null,
): VideoProgress {
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new Error('Veo operation answer is not an object');
  const operation = json as Operation;
  if (typeof operation.name !== 'string' && typeof operation.done !== 'boolean') {
    throw new Error('Veo operation answer has neither a name nor a done flag');
  }
  const id = typeof operation.name === 'string' && operation.name ? operation.name : upstreamId;
  if (operation.error && typeof operation.error === 'object') {
    const message = typeof operation.error.message === 'string' ? operation.error.message : '';
    return {
      upstreamId: id,
      status: 'failed',
      progress: 100,
      reason: message || `error ${String(operation.error.code)}`,
    };
  }
  if (operation.done !== true) return { upstreamId: id, status: 'in_progress', progress: 0 };
  const response = operation.response && typeof operation.response === 'object' ? operation.response : {};
  const url = video(response);
  if (url) return { upstreamId: id, status: 'completed', progress: 100, url };
  const filtered = filteredReason(response);
  if (filtered) return { upstreamId: id, status: 'failed', progress: 100, reason: filtered };
  return { upstreamId: id, status: 'completed', progress: 100 };
}

const firstOf = (value: unknown): Record<string, unknown> | null =>
  Array.isArray(value) && value[0] && typeof value[0] === 'object' ? (value[0] as Record<string, unknown>) : null;

/** The Gemini API's operation: `response.generateVideoResponse.generatedSamples[0].video.uri` (a key-protected file). */
export function readGeminiOperation(json: unknown, upstreamId: string): VideoProgress {
  return readOperation(json, upstreamId, (response) => {
    const generated = (response.generateVideoResponse ?? {}) as Record<string, unknown>;
    const video = firstOf(generated.generatedSamples)?.video as { uri?: unknown } | undefined;
    return typeof video?.uri === 'string' && video.uri ? video.uri : null;
  });
}

/**
 * Vertex's operation: `response.videos[0]` is a Cloud Storage object (`gcsUri`, when the request named a
 * `storageUri`) or the video itself (`bytesBase64Encoded`), kept as a `data:` URL as the family keeps it.
 */
export function readVertexOperation(json: unknown, upstreamId: string): VideoProgress {
  return readOperation(json, upstreamId, (response) => {
    const video = firstOf(response.videos);
    if (!video) return null;
    if (typeof video.gcsUri === 'string' && video.gcsUri) return video.gcsUri;
    if (typeof video.bytesBase64Encoded === 'string' && video.bytesBase64Encoded) {
      const mimeType = typeof video.mimeType === 'string' && video.mimeType ? video.mimeType : 'video/mp4';
      return `data:${mimeType};base64,${video.bytesBase64Encoded}`;
    }
    return null;
  });
}
