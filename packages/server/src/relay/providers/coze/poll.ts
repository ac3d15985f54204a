import type { OpenOptions } from '../../provider.js';
import { sendUpstream, type UpstreamResponse } from '../../send.js';
import type { UpstreamCall } from '../../types.js';
import { wholeResponse } from '../refusal-in-body.js';
import {
  type CozeAnswerMessage,
  type CozeChat,
  type CozeEnvelope,
  type CozeWholeAnswer,
  cozeCodeStatus,
} from './response.js';

/** How often a running chat is asked after (the family asks every second). */
export const POLL_INTERVAL_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Step<Data> = { data: Data } | { refusal: UpstreamResponse };

/** One call of the chat API, read whole: its `data`, or the answer to hand the conveyor as a refusal. */
async function step<Data>(call: UpstreamCall, options: OpenOptions): Promise<Step<Data>> {
  if (options.cancellation?.aborted) throw new Error('the client left');
  const response = await sendUpstream(call, options);
  const text = await response.body.text();
  if (response.statusCode !== 200) return { refusal: wholeResponse(response.statusCode, text) };
  let envelope: CozeEnvelope<Data>;
  try {
    envelope = JSON.parse(text) as CozeEnvelope<Data>;
  } catch {
    return { refusal: wholeResponse(200, text, String(response.headers['content-type'] ?? 'text/plain')) };
  }
  if (envelope.code) return { refusal: wholeResponse(cozeCodeStatus(envelope.code), text) };
  return { data: envelope.data as Data };
}

/** A chat that ended otherwise than completed, as a refusal in Coze's own error shape. */
function unfinished(chat: CozeChat): UpstreamResponse {
  const code = chat.last_error?.code || 5000;
  const msg = chat.last_error?.msg || `chat ${chat.status}`;
  // `requires_action`: the bot waits for the client to run a tool, which an OpenAI chat client cannot do here.
  const status = chat.status === 'requires_action' ? 400 : cozeCodeStatus(code);
  return wholeResponse(status, JSON.stringify({ code, msg }));
}

/**
 * A whole (non-stream) Coze chat, as the family runs it: create the chat, ask `/v3/chat/retrieve` until it is
 * completed, then read its messages from `/v3/chat/message/list`. The answer handed to the conveyor is the finished
 * chat (its usage) with its messages, read by `fromCozeAnswer`.
 */
export async function runCozeChat(call: UpstreamCall, options: OpenOptions): Promise<UpstreamResponse> {
  const created = await step<CozeChat>(call, options);
  if ('refusal' in created) return created.refusal;
  const base = call.url.replace(/\/v3\/chat(\?.*)?$/, '');
  const query = new URLSearchParams({
    conversation_id: created.data.conversation_id ?? '',
    chat_id: created.data.id ?? '',
  });
  const get = (path: string): UpstreamCall => ({
    method: 'GET',
    url: `${base}${path}?${query}`,
    headers: { authorization: call.headers.authorization ?? '', accept: 'application/json' },
  });
  const deadline = Date.now() + options.timeoutMs;
  let chat = created.data;
  while (chat.status !== 'completed') {
    if (chat.status === 'failed' || chat.status === 'canceled' || chat.status === 'requires_action') {
      return unfinished(chat);
    }
    if (Date.now() + POLL_INTERVAL_MS > deadline) {
      return wholeResponse(504, JSON.stringify({ code: 5000, msg: 'the chat did not complete in time' }));
    }
    await sleep(POLL_INTERVAL_MS);
    const polled = await step<CozeChat>(get('/v3/chat/retrieve'), options);
    if ('refusal' in polled) return polled.refusal;
    chat = polled.data;
  }
  const listed = await step<CozeAnswerMessage[]>(get('/v3/chat/message/list'), options);
  if ('refusal' in listed) return listed.refusal;
  const whole: CozeWholeAnswer = { chat, messages: listed.data ?? [] };
  return wholeResponse(200, JSON.stringify(whole));
}
