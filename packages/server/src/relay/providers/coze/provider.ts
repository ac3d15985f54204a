import type { Provider } from '../../provider.js';
import type { RuntimeChannel } from '../../types.js';
import { sendSeeingRefusals } from '../refusal-in-body.js';
import { joinUrl } from '../task-call.js';
import { runCozeChat } from './poll.js';
import { toCozeRequest } from './request.js';
import { cozeError, cozeRefusalStatus, fromCozeAnswer } from './response.js';
import { cozeToOpenAi } from './stream.js';

const cozeBase = (channel: RuntimeChannel) => channel.baseUrl || 'https://api.coze.cn';

/**
 * A Coze bot through the v3 chat API (type 49). The key is a personal access token; the bot id is the channel's
 * `other` (the model name when it is empty). A stream is relayed as it comes; a whole answer is polled (poll.ts).
 * Coze refuses with HTTP 200 and a `code` for streamed requests too.
 */
export const cozeProvider: Provider = {
  functions: {
    chat: {
      call: (channel, request) => ({
        method: 'POST',
        url: joinUrl(cozeBase(channel), '/v3/chat'),
        headers: {
          'content-type': 'application/json',
          accept: request.stream ? 'text/event-stream' : 'application/json',
          authorization: `Bearer ${channel.key}`,
        },
        body: JSON.stringify(toCozeRequest(request, channel.other.trim() || request.model)),
      }),
      answer: fromCozeAnswer,
      stream: cozeToOpenAi,
    },
  },
  error: cozeError,
  open: (call, _channel, options) =>
    options.stream ? sendSeeingRefusals(call, options, cozeRefusalStatus) : runCozeChat(call, options),
};
