import type { Provider } from '../../provider.js';
import { sendUpstream } from '../../send.js';
import type { RuntimeChannel } from '../../types.js';
import { joinUrl } from '../task-call.js';
import { gatherDifyStream } from './gather.js';
import { toDifyRequest } from './request.js';
import { difyError, fromDifyAnswer } from './response.js';
import { difyToOpenAi } from './stream.js';
import { withUploadedImages } from './upload.js';

const difyBase = (channel: RuntimeChannel) => channel.baseUrl || 'https://api.dify.ai';

/**
 * A Dify chat app (type 37): the key is the app's API key (`app-…`), the model name only picks the channel. Chat
 * goes to `POST /v1/chat-messages`, always streaming (agent apps refuse blocking); a whole answer is gathered from
 * the stream (gather.ts). Inline images are uploaded to the app's file API first (upload.ts).
 */
export const difyProvider: Provider = {
  functions: {
    chat: {
      call: (channel, request) => ({
        method: 'POST',
        url: joinUrl(difyBase(channel), '/v1/chat-messages'),
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          authorization: `Bearer ${channel.key}`,
        },
        body: JSON.stringify(toDifyRequest(request)),
      }),
      answer: fromDifyAnswer,
      stream: difyToOpenAi,
    },
  },
  error: difyError,
  async open(call, _channel, options) {
    const prepared = await withUploadedImages(call, options);
    if ('statusCode' in prepared) return prepared;
    const response = await sendUpstream(prepared, options);
    const eventStream = String(response.headers['content-type'] ?? '').includes('text/event-stream');
    if (options.stream || response.statusCode !== 200 || !eventStream) return response;
    return gatherDifyStream(await response.body.text());
  },
};
