import type { ServerResponse } from 'node:http';
import { contentText, countWords, promptTokens, splitWords } from '../text.js';
import { awsSignerAuthorization, eventFrame, exceptionFrame } from './bedrock-wire.js';
import { sendJsonBody, startVendorServer, type VendorMock, type VendorRequest, vendorReply } from './vendor-server.js';

export const BEDROCK_ACCESS_KEY = 'AKIAMOCKBEDROCK00001';
export const BEDROCK_SECRET_KEY = 'mockBedrockSecretKey/abc+def';
export const BEDROCK_REGION = 'us-east-1';
export const BEDROCK_KEY = `${BEDROCK_ACCESS_KEY}|${BEDROCK_SECRET_KEY}|${BEDROCK_REGION}`;
export const BEDROCK_API_KEY = 'ABSKmockBedrockApiKey';

const THROTTLED = 'Rate limit exceeded: too many requests, please wait before trying again.';

/** An AWS JSON error: `{message}` with the exception named in `x-amzn-ErrorType`, as Bedrock's REST API answers. */
function sendAwsError(res: ServerResponse, status: number, type: string, message: string): void {
  const text = JSON.stringify({ message });
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': 'mock-request',
  });
  res.end(text);
}

/**
 * Why the request's credentials are not valid, or null when they are: a Bedrock API key as a bearer token, or a
 * SigV4 signature recomputed by AWS's own signer over the headers the request says it signed, with the secret of
 * its access key, the scope's region and service `bedrock`, at most five minutes old.
 */
async function authProblem(request: VendorRequest): Promise<[string, string] | null> {
  const authorization = request.headers.authorization ?? '';
  if (authorization.startsWith('Bearer ')) {
    return authorization === `Bearer ${BEDROCK_API_KEY}`
      ? null
      : ['UnrecognizedClientException', 'Invalid API Key format: Must start with pre-defined prefix'];
  }
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=[0-9a-f]{64}$/.exec(
      authorization,
    );
  if (!match) return ['IncompleteSignatureException', 'Authorization header requires a valid SigV4 signature.'];
  const [, accessKeyId, , region, service, signed] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (accessKeyId !== BEDROCK_ACCESS_KEY || service !== 'bedrock') {
    return ['UnrecognizedClientException', 'The security token included in the request is invalid.'];
  }
  const time = request.headers['x-amz-date'] ?? '';
  const at = Date.parse(
    `${time.slice(0, 4)}-${time.slice(4, 6)}-${time.slice(6, 8)}T${time.slice(9, 11)}:${time.slice(11, 13)}:${time.slice(13, 15)}Z`,
  );
  if (!(Math.abs(Date.now() - at) <= 300_000)) return ['InvalidSignatureException', 'Signature expired.'];
  const headers = Object.fromEntries(signed.split(';').map((name) => [name, request.headers[name] ?? '']));
  const expected = await awsSignerAuthorization(
    { method: request.method, path: request.path, query: request.query, headers, body: request.raw },
    { accessKeyId, secretAccessKey: BEDROCK_SECRET_KEY },
    region,
    service,
  );
  return expected === authorization
    ? null
    : [
        'InvalidSignatureException',
        'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
      ];
}

/** Frames written in 37-byte pieces, so messages (and their preludes) reach the reader cut at odd places. */
function sendFrames(res: ServerResponse, frames: Buffer[], contentType = 'application/json'): void {
  res.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-bedrock-content-type': contentType,
    'x-amzn-requestid': 'mock-request',
  });
  const bytes = Buffer.concat(frames);
  for (let at = 0; at < bytes.length; at += 37) res.write(bytes.subarray(at, at + 37));
  res.end();
}

interface ConverseBody {
  messages?: Array<{ role?: string; content?: Array<Record<string, unknown>> }>;
  system?: Array<{ text?: string }>;
  toolConfig?: { tools?: Array<{ toolSpec?: { name?: string } }> };
}

interface MockAnswer {
  text: string;
  toolUse?: { toolUseId: string; name: string; input: Record<string, unknown> };
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
}

/**
 * Converse's answer to a conversation: with tools declared and no tool result yet, a call of the first tool with
 * `{"city":"Paris"}` (name + arguments = 2 completion tokens); otherwise the shared mock's sentence. Prompt tokens are
 * the words of every text (tool results included) + 3 per message.
 */
function converseAnswer(body: ConverseBody, modelId: string): MockAnswer {
  const messages = body.messages ?? [];
  const texts = messages.flatMap((message) =>
    (message.content ?? []).map((block) =>
      block.toolResult ? contentText((block.toolResult as { content?: unknown }).content) : contentText([block]),
    ),
  );
  const prompt = promptTokens({
    words: texts.reduce((sum, text) => sum + countWords(text), 0),
    messages: messages.length,
  });
  const last = messages.at(-1)?.content ?? [];
  const tool = body.toolConfig?.tools?.[0]?.toolSpec?.name;
  if (tool && !last.some((block) => block.toolResult)) {
    const input = { city: 'Paris' };
    const completion = countWords(tool) + countWords(JSON.stringify(input));
    return {
      text: '',
      toolUse: { toolUseId: 'tooluse_mock1', name: tool, input },
      stopReason: 'tool_use',
      usage: { inputTokens: prompt, outputTokens: completion, totalTokens: prompt + completion },
    };
  }
  const text = vendorReply('bedrock', modelId, []).text;
  const completion = countWords(text);
  return {
    text,
    stopReason: 'end_turn',
    usage: { inputTokens: prompt, outputTokens: completion, totalTokens: prompt + completion },
  };
}

function converseFrames(answer: MockAnswer): Buffer[] {
  const frames = [eventFrame('messageStart', { role: 'assistant', p: 'abcdefgh' })];
  if (answer.toolUse) {
    const { toolUseId, name, input } = answer.toolUse;
    const json = JSON.stringify(input);
    frames.push(
      eventFrame('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId, name } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: json.slice(0, 8) } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: json.slice(8) } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
    );
  } else {
    for (const word of splitWords(answer.text)) {
      frames.push(eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: word }, p: 'abc' }));
    }
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex: 0 }));
  }
  frames.push(
    eventFrame('messageStop', { stopReason: answer.stopReason }),
    eventFrame('metadata', { usage: answer.usage, metrics: { latencyMs: 12 } }),
  );
  return frames;
}

/** A chunk of InvokeModelWithResponseStream: the model's own event JSON as base64 `bytes`. */
const chunkFrame = (event: Record<string, unknown>) =>
  eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abcd' });

interface ClaudeBody {
  anthropic_version?: string;
  messages?: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

function claudeMessage(body: ClaudeBody, modelId: string) {
  const turns = body.messages ?? [];
  const reply = vendorReply('bedrock', modelId, turns);
  return {
    text: reply.text,
    usage: { input_tokens: reply.usage!.prompt, output_tokens: reply.usage!.completion },
  };
}

function invokeFrames(body: ClaudeBody, modelId: string): Buffer[] {
  const { text, usage } = claudeMessage(body, modelId);
  return [
    chunkFrame({
      type: 'message_start',
      message: {
        id: 'msg_bdrk_mock1',
        type: 'message',
        role: 'assistant',
        model: modelId,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    }),
    chunkFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...splitWords(text).map((word) =>
      chunkFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } }),
    ),
    chunkFrame({ type: 'content_block_stop', index: 0 }),
    chunkFrame({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
    chunkFrame({
      type: 'message_stop',
      'amazon-bedrock-invocationMetrics': {
        inputTokenCount: usage.input_tokens,
        outputTokenCount: usage.output_tokens,
        invocationLatency: 12,
        firstByteLatency: 3,
      },
    }),
  ];
}

/**
 * Bedrock Runtime: `POST /model/{modelId}/converse`, `/converse-stream`, `/invoke` and `/invoke-with-response-stream`,
 * SigV4-signed (service `bedrock`) or with a Bedrock API key. Streams are AWS event streams (binary frames with
 * CRCs), written cut at odd places. `[limit]` in the prompt is a throttling refusal (HTTP 429 and
 * `x-amzn-ErrorType: ThrottlingException`), `[limit-stream]` a stream whose first frame is a throttlingException, `[fail-mid-stream]` a ConverseStream
 * broken off by a modelStreamErrorException after two words.
 * InvokeModel takes Anthropic's Bedrock body: an `anthropic_version`, no `model`, no `stream`.
 */
export function startBedrockMock(): Promise<VendorMock> {
  return startVendorServer(async (request, res) => {
    const problem = await authProblem(request);
    if (problem) return sendAwsError(res, 403, problem[0], problem[1]);
    const route = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/.exec(
      request.path,
    );
    if (request.method !== 'POST' || !route) return sendAwsError(res, 404, 'UnknownOperationException', '');
    const modelId = decodeURIComponent(route[1]!);
    const action = route[2]!;
    const raw = request.raw;
    if (raw.includes('[limit-stream]') && action.endsWith('stream')) {
      return sendFrames(res, [exceptionFrame('throttlingException', THROTTLED)]);
    }
    if (raw.includes('[limit]')) return sendAwsError(res, 429, 'ThrottlingException', THROTTLED);
    if (raw.includes('[fail-mid-stream]') && action === 'converse-stream') {
      const frames = converseFrames(converseAnswer(request.body as ConverseBody, modelId)).slice(0, 3);
      return sendFrames(res, [...frames, exceptionFrame('modelStreamErrorException', 'The model stopped answering.')]);
    }
    if (action === 'converse' || action === 'converse-stream') {
      const answer = converseAnswer(request.body as ConverseBody, modelId);
      if (action === 'converse-stream') return sendFrames(res, converseFrames(answer));
      const content: Array<Record<string, unknown>> = answer.toolUse
        ? [{ toolUse: answer.toolUse }]
        : [{ text: answer.text }];
      return sendJsonBody(res, 200, {
        output: { message: { role: 'assistant', content } },
        stopReason: answer.stopReason,
        usage: answer.usage,
        metrics: { latencyMs: 12 },
      });
    }
    const body = request.body as ClaudeBody;
    // The family sends Bedrock's own `bedrock-2023-05-31`; Anthropic's Bedrock SDK 1.x the Messages API version of
    // its `anthropic-version` header.
    if (typeof body.anthropic_version !== 'string' || !body.anthropic_version || 'model' in body || 'stream' in body) {
      return sendAwsError(
        res,
        400,
        'ValidationException',
        'Malformed input request, please reformat your input and try again.',
      );
    }
    if (action === 'invoke-with-response-stream') return sendFrames(res, invokeFrames(body, modelId));
    const { text, usage } = claudeMessage(body, modelId);
    return sendJsonBody(res, 200, {
      id: 'msg_bdrk_mock1',
      type: 'message',
      role: 'assistant',
      model: modelId,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage,
    });
  });
}
