import type { Fields } from './read-request.js';

/**
 * The vendors' own request bodies, as the family accepts them on their native routes, renamed into the unified
 * video fields: what has a common name is moved, everything else stays in `metadata` for the vendor (a Kling body
 * reaching a Kling channel keeps its `mode`, `cfg_scale`, `camera_control`…).
 */

function without(body: Fields, names: string[]): Fields {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !names.includes(name)));
}

/** Kling's `text2video` / `image2video` body: `model_name`, `image` and `image_tail` for the first and last frame. */
export function klingFields(body: Fields): Fields {
  const image = body.image;
  const tail = body.image_tail;
  const frames = [image, tail].map((value) =>
    // Kling takes bare base64 as well as URLs; the unified fields want a URL or a data: URI.
    typeof value === 'string' && value && !/^(https?:|data:)/i.test(value) ? `data:image/png;base64,${value}` : value,
  );
  return {
    model: body.model_name ?? body.model,
    prompt: body.prompt,
    duration: typeof body.duration === 'string' ? Number(body.duration) || body.duration : body.duration,
    aspect_ratio: body.aspect_ratio,
    negative_prompt: body.negative_prompt,
    ...(tail ? { images: frames } : { image: frames[0] }),
    metadata: without(body, [
      'model_name',
      'model',
      'prompt',
      'duration',
      'aspect_ratio',
      'negative_prompt',
      'image',
      'image_tail',
    ]),
  };
}

/** Jimeng's `CVSync2AsyncSubmitTask` body: `req_key` is the model, frames count the length (24 per second + 1). */
export function jimengFields(body: Fields): Fields {
  const urls = Array.isArray(body.image_urls) ? (body.image_urls as unknown[]) : [];
  const inline = Array.isArray(body.binary_data_base64) ? (body.binary_data_base64 as unknown[]) : [];
  const images = [
    ...urls,
    ...inline.map((data) => (typeof data === 'string' ? `data:image/png;base64,${data}` : data)),
  ];
  const frames = Number(body.frames);
  return {
    model: body.req_key,
    prompt: body.prompt,
    ...(Number.isFinite(frames) && frames > 0 ? { duration: Math.round((frames - 1) / 24) } : {}),
    aspect_ratio: body.aspect_ratio,
    ...(typeof body.seed === 'number' && body.seed >= 0 ? { seed: body.seed } : {}),
    ...(images.length > 0 ? { images } : {}),
    metadata: without(body, [
      'req_key',
      'prompt',
      'frames',
      'aspect_ratio',
      'seed',
      'image_urls',
      'binary_data_base64',
    ]),
  };
}
