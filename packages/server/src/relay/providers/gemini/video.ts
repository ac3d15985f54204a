import { channelType } from '@gateway/shared';
import type { VideoFunction } from '../../provider.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
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
 * The call for a Veo file (`…/v1beta/files/{id}:download?alt=media`, as the operation names it): always made to the
 * channel's own base URL with the channel's key, whatever host the answer named. So the key only ever goes where
 * the admin pointed the channel (a proxy in front of Google included), and an answer cannot send the gateway
 * anywhere else.
 */
function fileCall(channel: RuntimeChannel, url: string | undefined): UpstreamCall {
  let file: URL;
  try {
    file = new URL(url ?? '');
  } catch {
    throw new Error('the Veo operation named no video file');
  }
  if (!/\/files\/[^/]+:download$/.test(file.pathname)) throw new Error(`not a Gemini file download: ${file.pathname}`);
  return {
    method: 'GET',
    url: `${base(channel)}${file.pathname.replace(/^.*?(\/v1[^/]*\/files\/)/, '$1')}${file.search}`,
    headers: { accept: '*/*', 'x-goog-api-key': channel.key },
  };
}

/**
 * Google Veo on the Gemini API (type 24, beside its chat): `POST /v1beta/models/{model}:predictLongRunning` answers
 * an operation name (`models/{model}/operations/{id}`, our upstream id), polled by `GET /v1beta/{name}`. The
 * finished video is a Gemini file whose URI needs the API key, so the gateway downloads it and the key never reaches
 * the client: `content` makes the keyed call; Google answers it with a redirect to a signed URL, followed once
 * without the key.
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
  async content(channel, _upstreamId, url, open) {
    const answer = await open(fileCall(channel, url));
    const location = answer.headers.location;
    if (answer.statusCode < 300 || answer.statusCode >= 400 || typeof location !== 'string' || !location) return answer;
    // Google answers the keyed download with a redirect to a signed URL: followed once, without the key.
    await answer.body.dump();
    return open({
      method: 'GET',
      url: new URL(location, fileCall(channel, url).url).toString(),
      headers: { accept: '*/*' },
    });
  },
};
