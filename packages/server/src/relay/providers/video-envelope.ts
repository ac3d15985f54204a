import type { VideoSubmitted } from '../video-types.js';

/**
 * A JSON answer read as a vendor's `{code, message, data}` envelope (Kling, Jimeng), whose fields are all optional:
 * anything but an object reads as an empty envelope, so every field is simply missing.
 */
export const envelopeOf = <Envelope extends object>(json: unknown): Envelope =>
  json && typeof json === 'object' && !Array.isArray(json) ? (json as Envelope) : ({} as Envelope);

/** A submit the envelope's code accepted: its task id, or a refusal when the vendor named none. */
export function submittedTask(id: unknown, vendor: string): VideoSubmitted {
  if (typeof id !== 'string' || !id) return { refused: `${vendor} answered without a task id` };
  return { upstreamId: id };
}
