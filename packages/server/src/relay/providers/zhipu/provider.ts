import { channelType } from '@gateway/shared';
import type { Provider } from '../../provider.js';
import { sendSeeingRefusals } from '../refusal-in-body.js';
import { toZhipuRequest } from './request.js';
import { fromZhipuAnswer, zhipuError, zhipuRefusalStatus } from './response.js';
import { zhipuToOpenAi } from './stream.js';
import { zhipuToken } from './token.js';

/** Zhipu's legacy ChatGLM API (v3 model-api, type 16); GLM-4 and later are the OpenAI-compatible type 26. */
export const zhipuProvider: Provider = {
  functions: {
    chat: {
      call(channel, request) {
        const base = channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || 'https://open.bigmodel.cn';
        const method = request.stream ? 'sse-invoke' : 'invoke';
        return {
          method: 'POST',
          url: `${base}/api/paas/v3/model-api/${encodeURIComponent(request.model)}/${method}`,
          headers: {
            'content-type': 'application/json',
            accept: request.stream ? 'text/event-stream' : 'application/json',
            authorization: zhipuToken(channel.key),
          },
          body: JSON.stringify(toZhipuRequest(request)),
        };
      },
      answer: fromZhipuAnswer,
      stream: zhipuToOpenAi,
    },
  },
  error: zhipuError,
  open: (call, _channel, options) => sendSeeingRefusals(call, options, zhipuRefusalStatus),
};
