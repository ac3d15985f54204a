import { generateKeyPairSync, type KeyObject, randomBytes, verify } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isRecord, splitWords } from '../text.js';
import type { MultipartBody } from '../types.js';
import {
  asksForLimit,
  sendJsonBody,
  startVendorServer,
  streamWords,
  type VendorMock,
  type VendorRequest,
  vendorReply,
} from './vendor-server.js';

/** The token endpoint Google's key files name; google-auth-library posts here whatever the file says. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The version Vertex's Claude publisher takes in the body. */
const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
/** The key the mock accepts for Vertex express mode (`x-goog-api-key`, no project in the path). */
export const VERTEX_API_KEY = 'AQ.vertex-express-mock-key';

export interface VertexMock extends VendorMock {
  /** `token_uri` for the key files the mock trusts: `{baseUrl}/token`. */
  tokenUri: string;
  /** Seconds a newly issued token lives (Google: 3599). */
  tokenLifetime: number;
  /** Every access token issued, in order. */
  issued: string[];
  /** A fresh service account the token endpoint trusts: its key file's JSON (an RSA key pair made for it). */
  serviceAccount(options?: { email?: string; projectId?: string }): ServiceAccountJson;
}

export interface ServiceAccountJson {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
  [field: string]: string;
}

/** How a route served beside the Vertex methods checks its caller, answering the refusal itself when it fails. */
export interface VertexAuth {
  /** As the publisher methods check it: a Bearer token for a service account of the project, or the express key. */
  project(project: string | undefined): boolean;
  /** Any unexpired token this mock issued (Cloud Storage reads). */
  bearer(): boolean;
}

export interface VertexMockOptions {
  /** Routes served on the same host first (Veo's long-running methods, a Cloud Storage bucket): true when answered. */
  extraRoute?(request: VendorRequest, res: ServerResponse, auth: VertexAuth): boolean | Promise<boolean>;
}

interface Trusted {
  publicKey: KeyObject;
  keyId: string;
  projectId: string;
}

/** Google's error body: `{error:{code,message,status}}`. */
const googleError = (res: ServerResponse, code: number, status: string, message: string) =>
  sendJsonBody(res, code, { error: { code, message, status } });

/** The OAuth endpoint's error body: `{error, error_description}` (400 for a bad grant, as Google answers). */
const oauthError = (res: ServerResponse, error: string, description: string) =>
  sendJsonBody(res, 400, { error, error_description: description });

const decodePart = (part: string): Record<string, unknown> | null => {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
};

/**
 * Google Vertex AI with its OAuth token endpoint, on one host (point the channel's base URL and the key's
 * `token_uri` at it):
 * - `POST /token`: the JWT bearer grant. The assertion must be RS256, signed by a service account the mock made
 *   (`serviceAccount()`; its `kid` names the key when given), with the cloud-platform scope, `aud` this endpoint
 *   (or Google's canonical token URL, which google-auth-library always uses) and an unexpired `exp` at most an hour
 *   after `iat`. Answers `{access_token, expires_in, token_type}`; refusals are Google's `invalid_grant` and kin.
 * - `POST /v1/projects/{project}/locations/{region}/publishers/google/models/{model}:generateContent`,
 *   `:streamGenerateContent` (`?alt=sse` → events, else a JSON array), `:predict` (text embeddings): a Bearer token
 *   the mock issued, for a service account of that project.
 * - `POST …/publishers/anthropic/models/{model}:rawPredict` / `:streamRawPredict`: a Messages body with
 *   `anthropic_version` (`vertex-2023-10-16`, or a dated API version) and no `model` (the URL names it);
 *   Anthropic's answer and event stream.
 * - `POST /v1/publishers/google/models/{model}:…` with `x-goog-api-key` (express mode).
 * `[limit]` in a prompt is a 429 RESOURCE_EXHAUSTED. Replies are `Hello from vertex mock: <model>` with the shared
 * arithmetic (vendor-server.ts), usage reported in each publisher's format.
 */
export async function startVertexMock(options: VertexMockOptions = {}): Promise<VertexMock> {
  const trusted = new Map<string, Trusted>();
  /** token → the service account's email and when it expires. */
  const tokens = new Map<string, { email: string; expiresAt: number }>();
  let mock: VertexMock;

  const issueToken = (request: VendorRequest, res: ServerResponse) => {
    const fields = (request.body as MultipartBody | undefined)?.fields ?? {};
    if (fields.grant_type !== JWT_BEARER_GRANT) {
      return oauthError(res, 'unsupported_grant_type', `Invalid grant_type: ${fields.grant_type ?? ''}`);
    }
    const [head = '', payload = '', signature = ''] = (fields.assertion ?? '').split('.');
    const header = decodePart(head);
    const claims = decodePart(payload);
    if (!header || !claims || header.alg !== 'RS256') return oauthError(res, 'invalid_grant', 'Invalid JWT.');
    const account = trusted.get(String(claims.iss));
    if (!account) return oauthError(res, 'invalid_grant', 'Invalid grant: account not found');
    if (header.kid !== undefined && header.kid !== account.keyId) {
      return oauthError(res, 'invalid_grant', 'Invalid JWT Signature.');
    }
    const signed = verify(
      'sha256',
      Buffer.from(`${head}.${payload}`),
      account.publicKey,
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) return oauthError(res, 'invalid_grant', 'Invalid JWT Signature.');
    if (claims.aud !== mock.tokenUri && claims.aud !== GOOGLE_TOKEN_URI) {
      return oauthError(res, 'invalid_grant', 'Invalid JWT: Failed audience check.');
    }
    const now = Math.floor(Date.now() / 1000);
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    if (!(exp > now && iat <= now + 60 && exp - iat <= 3600)) {
      return oauthError(res, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes).');
    }
    if (
      !String(claims.scope ?? '')
        .split(' ')
        .includes(CLOUD_PLATFORM_SCOPE)
    ) {
      return oauthError(res, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    }
    const token = `ya29.mock-${mock.issued.length + 1}-${randomBytes(6).toString('hex')}`;
    mock.issued.push(token);
    tokens.set(token, { email: String(claims.iss), expiresAt: Date.now() + mock.tokenLifetime * 1000 });
    return sendJsonBody(res, 200, { access_token: token, expires_in: mock.tokenLifetime, token_type: 'Bearer' });
  };

  /** Whether the caller may use the project (or, without one, holds the express-mode key); else refused here. */
  const authorised = (request: VendorRequest, res: ServerResponse, project: string | undefined): boolean => {
    if (project === undefined) {
      if (request.headers['x-goog-api-key'] === VERTEX_API_KEY) return true;
      googleError(res, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
      return false;
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const held = tokens.get(bearer);
    if (!held || held.expiresAt <= Date.now()) {
      googleError(
        res,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
      return false;
    }
    if (trusted.get(held.email)?.projectId !== project) {
      googleError(
        res,
        403,
        'PERMISSION_DENIED',
        `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${project}' (or it may not exist).`,
      );
      return false;
    }
    return true;
  };

  /** A live token this mock issued, else refused here with Google's 401. */
  const bearer = (request: VendorRequest, res: ServerResponse): boolean => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const held = tokens.get(token);
    if (held && held.expiresAt > Date.now()) return true;
    googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    return false;
  };

  const server = await startVendorServer(async (request, res) => {
    if (request.path === '/token' && request.method === 'POST') return issueToken(request, res);
    if (options.extraRoute) {
      const auth: VertexAuth = {
        project: (project) => authorised(request, res, project),
        bearer: () => bearer(request, res),
      };
      if (await options.extraRoute(request, res, auth)) return;
    }
    const match =
      /^\/v1\/(?:projects\/([^/]+)\/locations\/([^/]+)\/)?publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/.exec(
        request.path,
      );
    if (!match) return googleError(res, 404, 'NOT_FOUND', `The requested URL ${request.path} was not found.`);
    const [, project, , publisher, rawModel, method] = match;
    if (!authorised(request, res, project)) return;
    const model = decodeURIComponent(rawModel!);
    const body = isRecord(request.body) ? request.body : {};
    if (publisher === 'anthropic') return claudeMethod(res, model, method!, body);
    return geminiMethod(request, res, model, method!, body);
  });
  mock = Object.assign(server, {
    tokenUri: `${server.baseUrl}/token`,
    tokenLifetime: 3599,
    issued: [] as string[],
    serviceAccount(options: { email?: string; projectId?: string } = {}): ServiceAccountJson {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const keyId = randomBytes(20).toString('hex');
      const projectId = options.projectId ?? 'mock-project';
      const email = options.email ?? `gateway-${randomBytes(4).toString('hex')}@${projectId}.iam.gserviceaccount.com`;
      trusted.set(email, { publicKey, keyId, projectId });
      return {
        type: 'service_account',
        project_id: projectId,
        private_key_id: keyId,
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: email,
        client_id: String(100000000000000000000n + BigInt(trusted.size)),
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: `${server.baseUrl}/token`,
        universe_domain: 'googleapis.com',
      };
    },
  });
  return mock;
}

const limited = (res: ServerResponse, model: string) =>
  googleError(
    res,
    429,
    'RESOURCE_EXHAUSTED',
    `Resource exhausted: rate limit reached for base model ${model}. Please try again later.`,
  );

/** Gemini on Google's publisher: generateContent, streamGenerateContent, and text embeddings by `:predict`. */
function geminiMethod(
  request: VendorRequest,
  res: ServerResponse,
  model: string,
  method: string,
  body: Record<string, unknown>,
) {
  if (method === 'predict') return predictEmbeddings(res, body);
  if (method !== 'generateContent' && method !== 'streamGenerateContent') {
    return googleError(res, 400, 'INVALID_ARGUMENT', `Method ${method} is not served for ${model}.`);
  }
  const contents = Array.isArray(body.contents) ? (body.contents as Array<Record<string, unknown>>) : [];
  const system = isRecord(body.systemInstruction) ? [body.systemInstruction] : [];
  const turns = [...system, ...contents].map((content) => ({ content: content.parts }));
  if (asksForLimit(turns)) return limited(res, model);
  const reply = vendorReply('vertex', model, turns);
  const prompt = reply.usage!.prompt;
  const completion = reply.usage!.completion;
  const usageMetadata = {
    promptTokenCount: prompt,
    candidatesTokenCount: completion,
    totalTokenCount: prompt + completion,
    trafficType: 'ON_DEMAND',
  };
  const responseId = randomBytes(8).toString('base64url');
  const envelope = (text: string, last: boolean) => ({
    candidates: [
      { content: { role: 'model', parts: [{ text }] }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 },
    ],
    ...(last ? { usageMetadata } : {}),
    modelVersion: model,
    createTime: new Date().toISOString(),
    responseId,
  });
  if (method === 'generateContent') return sendJsonBody(res, 200, envelope(reply.text, true));
  if (request.query.alt !== 'sse') {
    const words = splitWords(reply.text);
    return sendJsonBody(
      res,
      200,
      words.map((word, index) => envelope(word, index === words.length - 1)),
    );
  }
  streamWords(res, reply.text, (word, _index, last) => envelope(word, last));
}

/** `:predict` for a text-embedding model: one prediction per instance, its token count in `statistics`. */
function predictEmbeddings(res: ServerResponse, body: Record<string, unknown>) {
  const instances = Array.isArray(body.instances) ? (body.instances as Array<Record<string, unknown>>) : [];
  const predictions = instances.map((instance, index) => ({
    embeddings: {
      values: [index, 0.5, -0.5],
      statistics: { token_count: splitWords(String(instance.content ?? '')).length, truncated: false },
    },
  }));
  const characters = instances.reduce((sum, instance) => sum + String(instance.content ?? '').length, 0);
  sendJsonBody(res, 200, { predictions, metadata: { billableCharacterCount: characters } });
}

/** Claude on Anthropic's publisher: a Messages body (Vertex's version, the model in the URL) → Anthropic's answer. */
function claudeMethod(res: ServerResponse, model: string, method: string, body: Record<string, unknown>) {
  if (method !== 'rawPredict' && method !== 'streamRawPredict') {
    return googleError(res, 400, 'INVALID_ARGUMENT', `Method ${method} is not served for ${model}.`);
  }
  const invalid = (message: string) =>
    sendJsonBody(res, 400, { type: 'error', error: { type: 'invalid_request_error', message } });
  // Vertex's own version, or a dated Messages API version (what @anthropic-ai/vertex-sdk 1.x copies from its header).
  const version = String(body.anthropic_version ?? '');
  if (version !== VERTEX_ANTHROPIC_VERSION && !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
    return invalid(`anthropic_version: Input should be '${VERTEX_ANTHROPIC_VERSION}'`);
  }
  if (body.model !== undefined) return invalid('model: Extra inputs are not permitted');
  if (typeof body.max_tokens !== 'number') return invalid('max_tokens: Field required');
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  const turns = [...(body.system ? [{ content: body.system }] : []), ...messages];
  if (asksForLimit(turns)) return limited(res, model);
  const reply = vendorReply('vertex', model, turns);
  const input = reply.usage!.prompt;
  const output = reply.usage!.completion;
  const id = `msg_vrtx_${randomBytes(12).toString('base64url')}`;
  const message = {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: reply.text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: input, output_tokens: output },
  };
  if (method === 'rawPredict') return sendJsonBody(res, 200, message);
  const event = (name: string, data: Record<string, unknown>) =>
    `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(
    event('message_start', {
      message: { ...message, content: [], stop_reason: null, usage: { input_tokens: input, output_tokens: 1 } },
    }),
  );
  res.write(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
  res.write(event('ping', {}));
  for (const word of splitWords(reply.text)) {
    res.write(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: word } }));
  }
  res.write(event('content_block_stop', { index: 0 }));
  res.write(
    event('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: output },
    }),
  );
  res.end(event('message_stop', {}));
}
