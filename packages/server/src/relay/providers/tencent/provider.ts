import type { Provider } from '../../provider.js';
import { splitUrl } from '../../upstream-exchange.js';
import { sendSeeingRefusals } from '../refusal-in-body.js';
import { toHunyuanRequest } from './request.js';
import { fromHunyuanAnswer, hunyuanError, hunyuanRefusalStatus } from './response.js';
import { tc3Authorization } from './sign.js';
import { hunyuanToOpenAi } from './stream.js';

const ACTION = 'ChatCompletions';

/**
 * Tencent Hunyuan through Tencent Cloud API 3.0 (type 23). The key is `AppId|SecretId|SecretKey`; each call is signed
 * (TC3-HMAC-SHA256) when it is sent, over the body as finally sent, so a channel's parameter override keeps it valid.
 */
export const tencentProvider: Provider = {
  functions: {
    chat: {
      call: (channel, request) => ({
        method: 'POST',
        url: `${channel.baseUrl || 'https://hunyuan.tencentcloudapi.com'}/`,
        headers: { 'content-type': 'application/json', 'x-tc-action': ACTION, 'x-tc-version': '2023-09-01' },
        body: JSON.stringify(toHunyuanRequest(request)),
      }),
      answer: fromHunyuanAnswer,
      stream: hunyuanToOpenAi,
    },
  },
  error: hunyuanError,
  open(call, channel, options) {
    const [, secretId = '', secretKey = ''] = channel.key.split('|');
    // The host without its port, as Tencent's own SDK signs it (real endpoints have none).
    const host = splitUrl(call.url)
      .origin.replace(/^[a-z]+:\/\//i, '')
      .replace(/:\d+$/, '');
    const timestamp = Math.floor(Date.now() / 1000);
    const payload = typeof call.body === 'string' ? call.body : (call.body?.toString() ?? '');
    const authorization = tc3Authorization({
      secretId,
      secretKey,
      service: 'hunyuan',
      timestamp,
      headers: {
        'content-type': call.headers['content-type'] ?? 'application/json',
        host,
        'x-tc-action': call.headers['x-tc-action'] ?? ACTION,
      },
      payload,
    });
    const headers = { ...call.headers, authorization, 'x-tc-timestamp': String(timestamp) };
    return sendSeeingRefusals({ ...call, headers }, options, hunyuanRefusalStatus);
  },
};
