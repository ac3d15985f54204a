import type { ServerResponse } from 'node:http';
import { splitWords } from '../text.js';
import { asksForLimit, sendJsonBody, startVendorServer, type VendorMock, vendorReply } from './vendor-server.js';

/** The personal access token and the bot the mock knows. */
export const COZE_KEY = 'pat_mockcozetoken';
export const COZE_BOT = '7380000000000000001';

interface MockChat {
  id: string;
  conversation_id: string;
  bot_id: string;
  created_at: number;
  status: string;
  last_error: { code: number; msg: string };
  usage?: { token_count: number; output_count: number; input_count: number };
  /** Retrieves still to answer `in_progress`. */
  pending: number;
  answer: string;
  fail: boolean;
  /** Reported once the chat has completed. */
  finalUsage: NonNullable<MockChat['usage']>;
}

const refusal = (code: number, msg: string) => ({ code, msg, detail: { logid: 'log-mock' } });
const ok = (data: unknown) => ({ code: 0, msg: '', data, detail: { logid: 'log-mock' } });
const publicChat = ({ pending: _p, answer: _a, fail: _f, finalUsage: _u, ...chat }: MockChat) => chat;

function event(res: ServerResponse, name: string, data: unknown) {
  res.write(`event:${name}\ndata:${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

/**
 * Coze's v3 chat API with a personal access token as Bearer. `POST /v3/chat` with `stream: true` answers the
 * event stream (`conversation.chat.created`, `…in_progress`, one `conversation.message.delta` per word,
 * `conversation.message.completed`, `conversation.chat.completed` with the usage, `done`); without it, the created
 * chat, which `GET /v3/chat/retrieve` reports completed (after one more `in_progress` with `[slow]`) and
 * `GET /v3/chat/message/list` lists (answer, verbose, follow-up). Refusals are HTTP 200 with a `code`: a wrong token
 * 4100, an unknown bot 4200, `[limit]` 4013; `[fail]` makes the chat fail (`last_error`).
 */
export function startCozeMock(): Promise<VendorMock> {
  const chats = new Map<string, MockChat>();
  let counter = 0;
  return startVendorServer((request, res) => {
    if (request.headers.authorization !== `Bearer ${COZE_KEY}`) {
      return sendJsonBody(res, 200, refusal(4100, 'authentication is invalid'));
    }
    if (
      request.method === 'GET' &&
      (request.path === '/v3/chat/retrieve' || request.path === '/v3/chat/message/list')
    ) {
      const chat = chats.get(request.query.chat_id ?? '');
      if (!chat || chat.conversation_id !== request.query.conversation_id) {
        return sendJsonBody(res, 200, refusal(4000, 'chat not found'));
      }
      if (request.path === '/v3/chat/retrieve') {
        if (chat.pending > 0) chat.pending -= 1;
        else if (chat.fail) {
          chat.status = 'failed';
          chat.last_error = { code: 5000, msg: 'model overloaded, try later' };
        } else {
          chat.status = 'completed';
          chat.usage = chat.finalUsage;
        }
        return sendJsonBody(res, 200, ok(publicChat(chat)));
      }
      const base = { bot_id: chat.bot_id, chat_id: chat.id, conversation_id: chat.conversation_id, role: 'assistant' };
      return sendJsonBody(
        res,
        200,
        ok([
          { ...base, id: 'm1', type: 'answer', content: chat.answer, content_type: 'text' },
          {
            ...base,
            id: 'm2',
            type: 'verbose',
            content: '{"msg_type":"generate_answer_finish"}',
            content_type: 'text',
          },
          { ...base, id: 'm3', type: 'follow_up', content: 'Tell me more?', content_type: 'text' },
        ]),
      );
    }
    if (request.method !== 'POST' || request.path !== '/v3/chat') {
      return sendJsonBody(res, 404, refusal(4000, 'not found'));
    }
    const body = request.body as {
      bot_id?: string;
      user_id?: string;
      stream?: boolean;
      additional_messages?: Array<Record<string, unknown>>;
    };
    if (body.bot_id !== COZE_BOT)
      return sendJsonBody(
        res,
        200,
        refusal(4200, 'The bot does not exist or has not been published as an API service'),
      );
    if (!body.user_id) return sendJsonBody(res, 200, refusal(4000, 'user_id is required'));
    const turns = body.additional_messages ?? [];
    if (asksForLimit(turns)) return sendJsonBody(res, 200, refusal(4013, 'The request rate exceeds the limit'));
    const reply = vendorReply('coze', COZE_BOT, turns);
    const usage = {
      token_count: reply.usage!.prompt + reply.usage!.completion,
      output_count: reply.usage!.completion,
      input_count: reply.usage!.prompt,
    };
    counter += 1;
    const text = JSON.stringify(turns);
    const chat: MockChat = {
      id: `chat-${counter}`,
      conversation_id: `conv-${counter}`,
      bot_id: COZE_BOT,
      created_at: Math.floor(Date.now() / 1000),
      status: 'in_progress',
      last_error: { code: 0, msg: '' },
      pending: text.includes('[slow]') ? 1 : 0,
      answer: reply.text,
      fail: text.includes('[fail]'),
      finalUsage: usage,
    };
    if (!body.stream) {
      chats.set(chat.id, chat);
      return sendJsonBody(res, 200, ok(publicChat(chat)));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    event(res, 'conversation.chat.created', publicChat(chat));
    event(res, 'conversation.chat.in_progress', publicChat(chat));
    const message = {
      id: 'm1',
      conversation_id: chat.conversation_id,
      bot_id: COZE_BOT,
      chat_id: chat.id,
      role: 'assistant',
      type: 'answer',
      content_type: 'text',
    };
    for (const word of splitWords(reply.text)) event(res, 'conversation.message.delta', { ...message, content: word });
    if (chat.fail) {
      event(res, 'conversation.chat.failed', {
        ...publicChat(chat),
        status: 'failed',
        last_error: { code: 5000, msg: 'model overloaded, try later' },
      });
    } else {
      event(res, 'conversation.message.completed', { ...message, content: reply.text });
      event(res, 'conversation.message.completed', {
        ...message,
        id: 'm3',
        type: 'follow_up',
        content: 'Tell me more?',
      });
      event(res, 'conversation.chat.completed', { ...publicChat(chat), status: 'completed', usage });
    }
    event(res, 'done', '"[DONE]"');
    res.end();
  });
}
