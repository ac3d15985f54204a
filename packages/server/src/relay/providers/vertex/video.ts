import type { VideoFunction } from '../../provider.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import {
  operationModel,
  readOperationName,
  readVertexOperation,
  veoBody,
  veoRatios,
  veoUnsupported,
} from '../gemini/veo.js';
import { dataUrlFile, heldFile } from '../video-file.js';
import { publisherUrl, vertexHeaders } from './location.js';

/** Google Cloud Storage's JSON API; `STORAGE_EMULATOR_HOST` (Google's own client libraries honour it) points elsewhere. */
function storageHost(): string {
  const emulator = process.env.STORAGE_EMULATOR_HOST?.trim();
  if (!emulator) return 'https://storage.googleapis.com';
  return (/^https?:\/\//.test(emulator) ? emulator : `http://${emulator}`).replace(/\/+$/, '');
}

/** `gs://bucket/path/to/object` → the object's media URL on the JSON API. */
function storageMediaUrl(gcsUri: string): string {
  const match = /^gs:\/\/([^/]+)\/(.+)$/.exec(gcsUri);
  if (!match) throw new Error(`not a Cloud Storage object: ${gcsUri}`);
  const [, bucket, object] = match as unknown as [string, string, string];
  return `${storageHost()}/storage/v1/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(object)}?alt=media`;
}

/**
 * The finished file when it lives in Cloud Storage: read with the channel's own credentials (the provider's `open`
 * puts the service account's token on it), never handed to the client as a `gs://` URI it could not open.
 */
function storageCall(channel: RuntimeChannel, gcsUri: string): UpstreamCall {
  const headers: Record<string, string> = { accept: '*/*' };
  const auth = vertexHeaders(channel)['x-goog-api-key'];
  if (auth) headers['x-goog-api-key'] = auth;
  return { method: 'GET', url: storageMediaUrl(gcsUri), headers };
}

/**
 * Google Veo on Vertex AI (type 41, beside its chat): `POST …/publishers/google/models/{model}:predictLongRunning`
 * answers an operation name (`projects/…/locations/…/publishers/google/models/{model}/operations/{id}`), polled by
 * `POST …:fetchPredictOperation {operationName}`. Authentication is the provider's: the service account's token
 * (its `open`), or an express-mode API key in the header.
 *
 * Vertex hands the video back one of two ways, and `content` follows:
 * - `gcsUri` (the request named `metadata.storageUri`, a bucket): the poll reports the `gs://` URI; the file is read
 *   from Cloud Storage's JSON API (`?alt=media`) with the channel's token.
 * - `bytesBase64Encoded` (no bucket): the video is inside the operation; the poll reports it as a `data:` URL (the
 *   family stores it so too), decoded without a call.
 */
export const vertexVideo: VideoFunction = {
  unsupported: (request, model) => veoUnsupported(request, model, 'vertex'),
  ratios: veoRatios,
  submit: (channel, request, model) => ({
    method: 'POST',
    url: publisherUrl(channel, 'google', model, 'predictLongRunning'),
    headers: vertexHeaders(channel),
    body: JSON.stringify(veoBody(request, model, 'vertex')),
  }),
  readSubmit: readOperationName,
  poll: (channel, upstreamId, model) => ({
    method: 'POST',
    // Asked of the model the operation belongs to (its name says), in the channel's region for that model.
    url: publisherUrl(channel, 'google', operationModel(upstreamId) ?? model, 'fetchPredictOperation'),
    headers: vertexHeaders(channel),
    body: JSON.stringify({ operationName: upstreamId }),
  }),
  readPoll: readVertexOperation,
  async content(channel, _upstreamId, url, open) {
    const held = url ? dataUrlFile(url) : null;
    if (held) return heldFile(held.bytes, held.contentType);
    if (url?.startsWith('gs://')) return open(storageCall(channel, url));
    throw new Error('the Veo operation named no video');
  },
};
