import type { RouteFunction } from '../../provider.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import { predictionCall } from './request.js';
import type { Prediction } from './response.js';

/** Aspect ratios the image models (FLUX) take by name; any other size is sent as a custom width and height. */
const NAMED_RATIOS = new Set(['1:1', '16:9', '9:16', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3']);

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A custom side: a multiple of 32 within the 256–1440 FLUX accepts. */
const side = (value: number) => Math.min(1440, Math.max(256, Math.round(value / 32) * 32));

/** OpenAI's `size` (`WxH`) as FLUX input: a named aspect ratio when it reduces to one, else custom sides (family). */
export function sizeInput(size: string): Record<string, unknown> {
  const match = /^\s*(\d+)\s*x\s*(\d+)\s*$/.exec(size);
  if (!match) return {};
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (!width || !height) return {};
  const divisor = gcd(width, height);
  const ratio = `${width / divisor}:${height / divisor}`;
  if (NAMED_RATIOS.has(ratio)) return { aspect_ratio: ratio };
  // DALL·E 3's wide and tall sizes are 16:9 and 9:16 in spirit, not in arithmetic.
  if (size.trim() === '1792x1024') return { aspect_ratio: '16:9' };
  if (size.trim() === '1024x1792') return { aspect_ratio: '9:16' };
  return { aspect_ratio: 'custom', width: side(width), height: side(height) };
}

interface ImageRequest {
  prompt?: unknown;
  size?: unknown;
  n?: unknown;
  quality?: unknown;
  output_format?: unknown;
  input?: unknown;
}

/**
 * OpenAI image generation → a prediction of an image model: the prompt, the size as an aspect ratio, `n` as
 * `num_outputs`, `hd`/`high` quality as prompt upsampling; an `input` object in the body is passed to the model
 * as it is (its own parameters). The answer lists the output URLs (`b64_json` is not offered: the images stay at
 * Replicate's delivery URLs).
 */
export const replicateImages: RouteFunction = {
  call(channel: RuntimeChannel, body, upstreamModel): UpstreamCall {
    const request = JSON.parse(String(body)) as ImageRequest;
    const input: Record<string, unknown> = { prompt: request.prompt };
    if (typeof request.size === 'string') Object.assign(input, sizeInput(request.size));
    if (typeof request.n === 'number' && request.n > 0) input.num_outputs = request.n;
    if (request.quality === 'hd' || request.quality === 'high') input.prompt_upsampling = true;
    if (typeof request.output_format === 'string' && request.output_format) input.output_format = request.output_format;
    if (request.input && typeof request.input === 'object') Object.assign(input, request.input);
    return predictionCall(channel, upstreamModel, input);
  },
  answer(json) {
    const output = (json as Prediction).output;
    const urls = (Array.isArray(output) ? output : [output]).filter(
      (url): url is string => typeof url === 'string' && url !== '',
    );
    return { created: Math.floor(Date.now() / 1000), data: urls.map((url) => ({ url })) };
  },
};
