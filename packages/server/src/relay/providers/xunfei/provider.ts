import { channelType } from '@gateway/shared';
import type { Provider } from '../../provider.js';
import type { RuntimeChannel } from '../../types.js';
import { fromSparkAnswer, sparkError } from './frames.js';
import { toSparkFrame } from './request.js';
import { signedSparkUrl } from './sign.js';
import { openSpark } from './socket.js';
import { sparkToOpenAi } from './stream.js';
import { sparkVersion } from './versions.js';

/** A base URL typed as http(s) means the same host over ws(s). */
function socketBase(channel: RuntimeChannel): string {
  return (channel.baseUrl || 'wss://spark-api.xf-yun.com').replace(/^http/i, 'ws');
}

/**
 * iFlytek Spark over its WebSocket API (type 18). The key is `APPID|APISecret|APIKey`; `other` is the API version
 * (v3.5 → `/v3.5/chat`, domain `generalv3.5`) for models whose name does not say it.
 */
export const xunfeiProvider: Provider = {
  functions: {
    chat: {
      call(channel, request) {
        const [appId = '', apiSecret = '', apiKey = ''] = channel.key.split('|');
        const fallback = channelType(channel.type)?.otherDefault ?? 'v1.1';
        const version = sparkVersion(request.model, channel.other, fallback);
        return {
          method: 'GET',
          url: signedSparkUrl(`${socketBase(channel)}${version.path}`, apiKey, apiSecret, new Date().toUTCString()),
          headers: {},
          body: JSON.stringify(toSparkFrame(request, appId, version.domain)),
        };
      },
      answer: fromSparkAnswer,
      stream: sparkToOpenAi,
    },
  },
  error: sparkError,
  open: (call, _channel, options) => openSpark(call, options),
};
