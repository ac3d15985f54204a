import type { Provider } from '../../provider.js';
import { sendUpstream } from '../../send.js';
import type { RuntimeChannel } from '../../types.js';
import { joinUrl } from '../task-call.js';
import { toDifyRequest } from './request.js';
import { difyError, fromDifyAnswer } from './response.js';
import { difyToOpenAi } from './stream.js';
import { withUploadedImages } from './upload.js';

const difyBase = (channel: RuntimeChannel) => channel.baseUrl || 'https://api.dify.ai';

/**
 * A Dify chat app (type 37): the key is the app's API key (`app-…`), the model name only picks the channel. Chat
 * goes to `POST /v1/chat-messages`, blocking or streaming as the client asked; inline images are uploaded to the
 * app's file API first (upload.ts).
 */
export const difyProvider: Provider = {
  functions: {
    chat: {
      call: (channel, request) => ({
        method: 'POST',
        url: joinUrl(difyBase(channel), '/v1/chat-messages'),
        headers: {
          'content-type': 'application/json',
          accept: request.stream ? 'text/event-stream' : 'application/json',
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
    return 'statusCode' in prepared ? prepared : sendUpstream(prepared, options);
  },
};
