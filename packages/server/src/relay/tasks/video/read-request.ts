import type { Language } from '@gateway/shared';
import type { FastifyRequest } from 'fastify';
import { RelayError } from '../../errors.js';
import { boundaryOf, type FormPart, parseMultipart } from '../../multipart.js';
import type { VideoImage, VideoRequest } from '../../video-types.js';

/** Longest video any route accepts; vendors narrow it further (`unsupported`). */
export const MAX_VIDEO_SECONDS = 60;
/** The largest image a request may carry (an upload or a data: URI), before any vendor sees it. */
export const MAX_VIDEO_IMAGE_BYTES = 10 * 1024 * 1024;

const SIZE = /^\d{2,5}x\d{2,5}$/;
const RESOLUTION = /^\d{3,4}p$/i;
const ASPECT = /^\d{1,2}:\d{1,2}$/;

const invalid = (lang: Language, field: string, reason: string) =>
  RelayError.of(400, lang, 'video_param_invalid', { field, reason }, 'invalid_request');

export type Fields = Record<string, unknown>;

/** A multipart body's text fields (JSON-looking ones parsed: `metadata`, `images`) and its files. */
function formFields(parts: FormPart[]): { fields: Fields; files: FormPart[] } {
  const fields: Fields = {};
  const files: FormPart[] = [];
  for (const part of parts) {
    if (part.filename !== undefined) {
      files.push(part);
      continue;
    }
    const text = part.data.toString('utf8');
    if ((part.name === 'metadata' || part.name === 'images') && /^[[{]/.test(text.trim())) {
      try {
        fields[part.name] = JSON.parse(text);
        continue;
      } catch {
        // kept as text: reported as invalid below
      }
    }
    fields[part.name] = text;
  }
  return { fields, files };
}

/** The body as fields and uploaded files, from JSON or multipart/form-data (OpenAI's SDK always sends the latter). */
function bodyOf(request: FastifyRequest, lang: Language): { fields: Fields; files: FormPart[] } {
  const body = request.body;
  if (Buffer.isBuffer(body)) {
    const boundary = boundaryOf(request.headers['content-type']);
    if (!boundary) throw invalid(lang, 'body', 'multipart/form-data without a boundary');
    return formFields(parseMultipart(body, boundary));
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw RelayError.of(400, lang, 'relay_body_invalid', { reason: 'JSON object expected' }, 'invalid_request');
  }
  return { fields: body as Fields, files: [] };
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function optionalText(fields: Fields, name: string, pattern: RegExp, lang: Language, example: string): string | null {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !pattern.test(value.trim())) {
    throw invalid(lang, name, `expected a value like ${example}`);
  }
  return value.trim();
}

/** `seconds` (OpenAI: a string) or `duration` (the family: a number), a whole number of seconds within bounds. */
function secondsOf(fields: Fields, lang: Language): number | null {
  const name = fields.seconds !== undefined && fields.seconds !== '' ? 'seconds' : 'duration';
  const raw = fields[name];
  if (raw === undefined || raw === null || raw === '') return null;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_VIDEO_SECONDS) {
    throw invalid(lang, name, `a whole number of seconds from 1 to ${MAX_VIDEO_SECONDS}`);
  }
  return value;
}

/** The size of a `data:` URI's payload without decoding it (base64: 3 bytes per 4 characters). */
function dataUriBytes(uri: string): number {
  const comma = uri.indexOf(',');
  const payload = comma === -1 ? '' : uri.slice(comma + 1);
  return /;base64$/i.test(uri.slice(0, Math.max(0, comma))) ? Math.floor((payload.length * 3) / 4) : payload.length;
}

function imageFromText(value: unknown, role: VideoImage['role'], field: string, lang: Language): VideoImage | null {
  // OpenAI's JSON form of input_reference: `{image_url}` (or a `file_id` this gateway does not hold).
  const url = typeof value === 'object' && value !== null ? (value as { image_url?: unknown }).image_url : value;
  if (url === undefined || url === null || url === '') return null;
  if (typeof url !== 'string' || !/^(https?:\/\/|data:image\/)/i.test(url.trim())) {
    throw invalid(lang, field, 'an http(s) URL or a data:image URI');
  }
  if (url.startsWith('data:') && dataUriBytes(url) > MAX_VIDEO_IMAGE_BYTES) {
    throw invalid(lang, field, `images are limited to ${MAX_VIDEO_IMAGE_BYTES / 1024 / 1024} MiB`);
  }
  return { role, url: url.trim() };
}

/**
 * The images, by where clients put them: OpenAI's `input_reference` (an upload or `{image_url}`) and the family's
 * `image`, `images` (first frame, then last frame) and `input_reference` as a URL.
 */
function imagesOf(fields: Fields, files: FormPart[], lang: Language): VideoImage[] {
  const images: VideoImage[] = [];
  for (const file of files) {
    if (file.name !== 'input_reference' && file.name !== 'image') continue;
    if (file.data.length > MAX_VIDEO_IMAGE_BYTES) {
      throw invalid(lang, file.name, `images are limited to ${MAX_VIDEO_IMAGE_BYTES / 1024 / 1024} MiB`);
    }
    images.push({ role: 'first_frame', bytes: file.data, mimeType: file.contentType ?? 'image/png' });
  }
  const first = imageFromText(fields.input_reference, 'first_frame', 'input_reference', lang);
  if (first) images.push(first);
  const image = imageFromText(fields.image, 'first_frame', 'image', lang);
  if (image) images.push(image);
  if (fields.images !== undefined && fields.images !== null && fields.images !== '') {
    if (!Array.isArray(fields.images)) throw invalid(lang, 'images', 'a list of image URLs');
    fields.images.forEach((value, index) => {
      const role = index === 0 && images.length === 0 ? 'first_frame' : index === 1 ? 'last_frame' : 'reference';
      const read = imageFromText(value, role, 'images', lang);
      if (read) images.push(read);
    });
  }
  return images;
}

/**
 * Reads any video route's body (JSON or multipart) into a VideoRequest, refusing what no vendor could make with a
 * 400 naming the field: a missing prompt, a duration past a minute, a size that is not WIDTHxHEIGHT, an image too
 * large. `defaultModel`: OpenAI's Videos API falls back to sora-2 when no model is named. `dialect`: a vendor's
 * native body (Kling's, Jimeng's) renamed into the unified fields first.
 */
export function readVideoRequest(
  request: FastifyRequest,
  lang: Language,
  defaultModel?: string,
  dialect?: (fields: Fields) => Fields,
): VideoRequest {
  const body = bodyOf(request, lang);
  const fields = dialect ? dialect(body.fields) : body.fields;
  const files = body.files;
  const prompt = text(fields.prompt);
  if (!prompt) throw RelayError.of(400, lang, 'task_field_required', { field: 'prompt' }, 'invalid_request');
  const model = text(fields.model) || defaultModel || '';
  if (!model) throw RelayError.of(400, lang, 'task_field_required', { field: 'model' }, 'invalid_request');
  const metadata = fields.metadata ?? {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw invalid(lang, 'metadata', 'a JSON object');
  }
  const seedRaw = fields.seed;
  const seed = seedRaw === undefined || seedRaw === null || seedRaw === '' ? null : Number(seedRaw);
  if (seed !== null && !Number.isInteger(seed)) throw invalid(lang, 'seed', 'a whole number');
  return {
    model,
    prompt,
    seconds: secondsOf(fields, lang),
    size: optionalText(fields, 'size', SIZE, lang, '1280x720'),
    resolution: optionalText(fields, 'resolution', RESOLUTION, lang, '720p'),
    aspectRatio:
      optionalText(fields, 'aspect_ratio', ASPECT, lang, '16:9') ?? optionalText(fields, 'ratio', ASPECT, lang, '16:9'),
    images: imagesOf(fields, files, lang),
    seed,
    negativePrompt: text(fields.negative_prompt) || null,
    metadata: metadata as Record<string, unknown>,
  };
}
