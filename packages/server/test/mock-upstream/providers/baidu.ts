import { countWords } from '../text.js';
import {
  asksForLimit,
  sendJsonBody,
  startVendorServer,
  streamWords,
  type VendorMock,
  vendorReply,
} from './vendor-server.js';

export const BAIDU_KEY = 'baidu-api-key|baidu-secret-key';
const ACCESS_TOKEN = '24.mock-access-token.2592000.mock';

/**
 * Baidu's wenxinworkshop API: `POST /oauth/2.0/token` (client credentials → a 30-day access token; a wrong pair is
 * 401 `invalid_client`), then `POST /rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}?access_token=…` (JSON, or
 * SSE with `stream: true`) and `/embeddings/{endpoint}`. Refusals come with HTTP 200 and `error_code`: a bad token
 * is 110, `[limit]` in the prompt 18 (QPS).
 */
export function startBaiduMock(): Promise<VendorMock> {
  return startVendorServer((request, res) => {
    if (request.path === '/oauth/2.0/token') {
      const [apiKey, secretKey] = BAIDU_KEY.split('|');
      if (request.query.client_id !== apiKey || request.query.client_secret !== secretKey) {
        return sendJsonBody(res, 401, { error: 'invalid_client', error_description: 'unknown client id' });
      }
      return sendJsonBody(res, 200, { access_token: ACCESS_TOKEN, expires_in: 2592000, scope: 'public' });
    }
    const match = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/(chat|embeddings)\/([^/]+)$/.exec(request.path);
    if (!match) return sendJsonBody(res, 404, { error_code: 3, error_msg: 'Unsupported openapi method' });
    if (request.query.access_token !== ACCESS_TOKEN) {
      return sendJsonBody(res, 200, { error_code: 110, error_msg: 'Access token invalid or no longer valid' });
    }
    const body = request.body as {
      messages?: Array<Record<string, unknown>>;
      system?: string;
      input?: string[];
      stream?: boolean;
    };
    const created = Math.floor(Date.now() / 1000);
    if (match[1] === 'embeddings') {
      const input = body.input ?? [];
      const tokens = input.reduce((sum, text) => sum + countWords(text), 0);
      return sendJsonBody(res, 200, {
        id: 'as-mock',
        object: 'embedding_list',
        created,
        data: input.map((_, index) => ({ object: 'embedding', embedding: [index, 0.5, -0.5], index })),
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    }
    const turns = [...(body.system ? [{ content: body.system }] : []), ...(body.messages ?? [])];
    if (asksForLimit(turns))
      return sendJsonBody(res, 200, { error_code: 18, error_msg: 'Open api qps request limit reached' });
    const reply = vendorReply('baidu', match[2]!, turns);
    const prompt = reply.usage!.prompt;
    const completion = reply.usage!.completion;
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    if (!body.stream) {
      return sendJsonBody(res, 200, {
        id: 'as-mock',
        object: 'chat.completion',
        created,
        result: reply.text,
        is_truncated: false,
        need_clear_history: false,
        finish_reason: 'normal',
        usage,
      });
    }
    // Like Baidu, every event carries the prompt's usage; the last one the whole.
    const prefix = { prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt };
    streamWords(res, reply.text, (word, index, last) => ({
      id: 'as-mock',
      object: 'chat.completion',
      created,
      sentence_id: index,
      is_end: last,
      is_truncated: false,
      result: word,
      need_clear_history: false,
      finish_reason: last ? 'normal' : '',
      usage: last ? usage : prefix,
    }));
  });
}
