import { tc3Authorization } from '../../../src/relay/providers/tencent/sign.js';
import {
  asksForLimit,
  sendJsonBody,
  startVendorServer,
  streamWords,
  type VendorMock,
  vendorReply,
} from './vendor-server.js';

export const TENCENT_SECRET_ID = 'AKIDmockSecretId';
export const TENCENT_SECRET_KEY = 'mockSecretKey';
export const TENCENT_KEY = `1300000000|${TENCENT_SECRET_ID}|${TENCENT_SECRET_KEY}`;

const errorAnswer = (Code: string, Message: string) => ({
  Response: { Error: { Code, Message }, RequestId: 'mock-request' },
});

/**
 * Why the request's TC3 signature is not valid, or null when it is: the signature is recomputed over the headers
 * the request says it signed, with the secret of its SecretId, and its timestamp must be within five minutes.
 */
function signatureProblem(headers: Record<string, string>, raw: string): string | null {
  const match =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=[0-9a-f]{64}$/.exec(
      headers.authorization ?? '',
    );
  if (!match) return 'AuthFailure.InvalidAuthorization';
  const [, secretId, , service, signed] = match as unknown as [string, string, string, string, string];
  if (secretId !== TENCENT_SECRET_ID) return 'AuthFailure.SecretIdNotFound';
  const timestamp = Number(headers['x-tc-timestamp']);
  if (!(Math.abs(Date.now() / 1000 - timestamp) <= 300)) return 'AuthFailure.SignatureExpire';
  // Signed as Tencent's SDK signs it: the host without a port.
  const signedHeaders = Object.fromEntries(
    signed
      .split(';')
      .map((name) => [name, name === 'host' ? (headers.host ?? '').replace(/:\d+$/, '') : (headers[name] ?? '')]),
  );
  const expected = tc3Authorization({
    secretId,
    secretKey: TENCENT_SECRET_KEY,
    service,
    timestamp,
    headers: signedHeaders,
    payload: raw,
  });
  return expected === headers.authorization ? null : 'AuthFailure.SignatureFailure';
}

/**
 * Tencent Cloud API 3.0 for Hunyuan: `POST /` with `X-TC-Action: ChatCompletions`, `X-TC-Version: 2023-09-01` and a
 * TC3-HMAC-SHA256 signature; answers `{Response: {Choices, Usage, Id, RequestId}}`, or SSE events with
 * `Choices[].Delta` when `Stream` is true. Refusals come with HTTP 200 and `Response.Error`: a bad signature is an
 * `AuthFailure.*`, `[limit]` in the prompt `RequestLimitExceeded`.
 */
export function startTencentMock(): Promise<VendorMock> {
  return startVendorServer((request, res) => {
    const problem = signatureProblem(request.headers, request.raw);
    if (problem)
      return sendJsonBody(res, 200, errorAnswer(problem, 'The provided credentials could not be validated.'));
    if (request.headers['x-tc-action'] !== 'ChatCompletions' || request.headers['x-tc-version'] !== '2023-09-01') {
      return sendJsonBody(res, 200, errorAnswer('InvalidAction', 'The action requested is invalid for this service.'));
    }
    const body = request.body as { Model?: string; Messages?: Array<Record<string, unknown>>; Stream?: boolean };
    const turns = body.Messages ?? [];
    if (asksForLimit(turns))
      return sendJsonBody(res, 200, errorAnswer('RequestLimitExceeded', '请求的次数超过了频率限制。'));
    const reply = vendorReply('tencent', body.Model ?? '', turns);
    const Usage = {
      PromptTokens: reply.usage!.prompt,
      CompletionTokens: reply.usage!.completion,
      TotalTokens: reply.usage!.prompt + reply.usage!.completion,
    };
    const Created = Math.floor(Date.now() / 1000);
    if (!body.Stream) {
      return sendJsonBody(res, 200, {
        Response: {
          RequestId: 'mock-request',
          Note: '以上内容为AI生成',
          Choices: [{ Index: 0, Message: { Role: 'assistant', Content: reply.text }, FinishReason: 'stop' }],
          Created,
          Id: 'mock-id',
          Usage,
        },
      });
    }
    streamWords(res, reply.text, (word, _index, last) => ({
      Note: '以上内容为AI生成',
      Choices: [{ Delta: { Role: 'assistant', Content: word }, FinishReason: last ? 'stop' : '' }],
      Created,
      Id: 'mock-id',
      Usage,
    }));
  });
}
