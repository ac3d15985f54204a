import { channelType } from '@gateway/shared';
import type { VideoFunction } from '../../provider.js';
import type { RuntimeChannel } from '../../types.js';
import { operationModel, readGeminiOperation, readOperationName, veoBody, veoRatios, veoUnsupported } from './veo.js';

/** Veo is served by the Gemini API's v1beta only, whatever version the channel's chat is set to. */
const VEO_VERSION = 'v1beta';

function base(channel: RuntimeChannel): string {
  const url =
    channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://generativelanguage.googleapis.com';
  return url.replace(/\/+$/, '');
}

const headers = (channel: RuntimeChannel): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json',
  'x-goog-api-key': channel.key,
});

/**
 * Whether a file URL is on the channel's own host: only there does the channel's key go with the download, so a URL
 * an answer names elsewhere never receives it.
 */
function onChannelHost(channel: RuntimeChannel, url: string): boolean {
  try {
    return new URL(url).origin === new URL(base(channel)).origin;
  } catch {
    return false;
  }
}

/**
 * Google Veo on the Gemini API (type 24, beside its chat): `POST /v1beta/models/{model}:predictLongRunning` answers
 * an operation name (`models/{model}/operations/{id}`, our upstream id), polled by `GET /v1beta/{name}`. The
 * finished video is a Gemini file whose URI needs the API key, so the gateway downloads it (`content`) and the key
 * never reaches the client.
 */
export const geminiVideo: VideoFunction = {
  unsupported: (request, model) => veoUnsupported(request, model, 'gemini'),
  ratios: veoRatios,
  submit: (channel, request, model) => ({
    method: 'POST',
    url: `${base(channel)}/${VEO_VERSION}/models/${encodeURIComponent(model)}:predictLongRunning`,
    headers: headers(channel),
    body: JSON.stringify(veoBody(request, model, 'gemini')),
  }),
  readSubmit: readOperationName,
  poll: (channel, upstreamId, model) => ({
    method: 'GET',
    // The name is Google's own path (`models/…/operations/…`); an id that is no such path is asked of the model.
    url: `${base(channel)}/${VEO_VERSION}/${operationModel(upstreamId) ? upstreamId : `models/${encodeURIComponent(model)}/operations/${encodeURIComponent(upstreamId)}`}`,
    headers: headers(channel),
  }),
  readPoll: readGeminiOperation,
  content(channel, _upstreamId, url) {
    if (!url) throw new Error('the Veo operation named no video file');
    const call = { method: 'GET' as const, url, headers: { accept: '*/*' } as Record<string, string> };
    if (onChannelHost(channel, url)) call.headers['x-goog-api-key'] = channel.key;
    return call;
  },
};
