import { createHmac } from 'node:crypto';
import { splitWords } from '../text.js';
import { asksForLimit, sendJsonBody, startVendorServer, type VendorMock, vendorReply } from './vendor-server.js';

/** The key the mock accepts (`id.secret`). */
export const ZHIPU_KEY = 'zhipu-id.zhipu-secret';

const refusal = (code: number, msg: string) => ({ code, msg, success: false });

/** Whether `token` is the JWT Zhipu expects for ZHIPU_KEY: HS256, `sign_type: SIGN`, api_key, exp in ms, unexpired. */
function validToken(token: string): boolean {
  const [header = '', payload = '', signature = ''] = token.split('.');
  const [id, secret] = ZHIPU_KEY.split('.') as [string, string];
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  if (signature !== expected) return false;
  const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, number | string>;
  return (
    head.alg === 'HS256' &&
    head.sign_type === 'SIGN' &&
    claims.api_key === id &&
    Number(claims.exp) > Date.now() &&
    Number(claims.timestamp) <= Date.now()
  );
}

/**
 * Zhipu's legacy model API: `POST /api/paas/v3/model-api/{model}/invoke` (JSON) and `/sse-invoke` (events `add`,
 * then `finish` with the usage on a `meta:` line). Refusals come with HTTP 200 and `success: false`: a bad token
 * is 1002, `[limit]` in the prompt 1302.
 */
export function startZhipuMock(): Promise<VendorMock> {
  return startVendorServer((request, res) => {
    const match = /^\/api\/paas\/v3\/model-api\/([^/]+)\/(invoke|sse-invoke)$/.exec(request.path);
    if (!match) return sendJsonBody(res, 404, { code: 404, msg: 'Not Found', success: false });
    if (!validToken(request.headers.authorization ?? '')) {
      return sendJsonBody(res, 200, refusal(1002, 'Authorization Token非法，请确认Authorization Token正确传递。'));
    }
    const prompt = (request.body as { prompt?: Array<Record<string, unknown>> }).prompt ?? [];
    if (asksForLimit(prompt)) {
      return sendJsonBody(res, 200, refusal(1302, '您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。'));
    }
    const reply = vendorReply('zhipu', decodeURIComponent(match[1]!), prompt);
    const usage = {
      prompt_tokens: reply.usage!.prompt,
      completion_tokens: reply.usage!.completion,
      total_tokens: reply.usage!.prompt + reply.usage!.completion,
    };
    const taskId = `${Date.now()}`;
    if (match[2] === 'invoke') {
      return sendJsonBody(res, 200, {
        code: 200,
        msg: '操作成功',
        success: true,
        data: {
          request_id: taskId,
          task_id: taskId,
          task_status: 'SUCCESS',
          choices: [{ role: 'assistant', content: JSON.stringify(reply.text) }],
          usage,
        },
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const word of splitWords(reply.text)) res.write(`id: ${taskId}\nevent: add\ndata: ${word}\n\n`);
    const meta = { request_id: taskId, task_id: taskId, task_status: 'SUCCESS', usage };
    res.end(`id: ${taskId}\nevent: finish\ndata: \nmeta: ${JSON.stringify(meta)}\n\n`);
  });
}
