import type { Provider } from '../../provider.js';
import { sendSeeingRefusals } from '../refusal-in-body.js';
import { baiduPath } from './endpoints.js';
import { toBaiduEmbeddings, toBaiduRequest } from './request.js';
import { baiduError, baiduRefusalStatus, fromBaiduAnswer, fromBaiduEmbeddings } from './response.js';
import { baiduToOpenAi } from './stream.js';
import { baiduAccessToken, baiduBase, forgetBaiduToken } from './token.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Baidu ERNIE through the wenxinworkshop API (Qianfan v1, type 15). The key is `API Key|Secret Key`, exchanged for
 * an access token (cached per key) that travels as the `access_token` query parameter; the base URL serves both.
 */
export const baiduProvider: Provider = {
  functions: {
    chat: {
      call: (channel, request) => ({
        method: 'POST',
        url: `${baiduBase(channel)}${baiduPath(request.model)}`,
        headers: JSON_HEADERS,
        body: JSON.stringify(toBaiduRequest(request)),
      }),
      answer: fromBaiduAnswer,
      stream: baiduToOpenAi,
    },
    embeddings: {
      call: (channel, body, upstreamModel) => ({
        method: 'POST',
        url: `${baiduBase(channel)}${baiduPath(upstreamModel)}`,
        headers: JSON_HEADERS,
        body: JSON.stringify(toBaiduEmbeddings(body)),
      }),
      answer: fromBaiduEmbeddings,
    },
  },
  error: baiduError,
  async open(call, channel, options) {
    const token = await baiduAccessToken(channel, options.timeoutMs);
    if (typeof token !== 'string') return token;
    const separator = call.url.includes('?') ? '&' : '?';
    const url = `${call.url}${separator}access_token=${encodeURIComponent(token)}`;
    const response = await sendSeeingRefusals({ ...call, url }, options, baiduRefusalStatus);
    if (response.statusCode === 401) forgetBaiduToken(channel);
    return response;
  },
};
