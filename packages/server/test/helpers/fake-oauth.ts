import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local authorisation server speaking one provider's real wire format, for tests (server and browser):
 * - github: /login/oauth/authorize, /login/oauth/access_token (JSON, errors as 200 + `error`), /user
 * - linuxdo: /oauth2/authorize, /oauth2/token (client by HTTP Basic), /api/user
 * - oidc: /.well-known/openid-configuration, /authorize, /token (PKCE S256 enforced when a challenge was sent,
 *   redirect_uri must repeat), /userinfo, an HS256 ID token with nonce
 * - wechat: the family's "WeChat server", /api/wechat/user?code= with the server token as Authorization
 * The authorisation endpoint answers with a real 302 to the redirect_uri (or the registered callback).
 */
export type FakeProviderKind = 'github' | 'linuxdo' | 'oidc' | 'wechat';

export interface FakePerson {
  id: string | number;
  login?: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  active?: boolean;
  silenced?: boolean;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeOAuthServer {
  kind: FakeProviderKind;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  endpoints: { authorize: string; token: string; user: string; wellKnown: string };
  /** The person signed in at the provider: the next authorisation is granted to them. */
  person: FakePerson | null;
  /** Where the browser goes when the request names no redirect_uri (GitHub and LinuxDO use the registered one). */
  registeredCallback: string;
  /** WeChat server: verification codes the official account handed out, code → openid. */
  wechatCodes: Map<string, string>;
  wechatToken: string;
  received: ReceivedRequest[];
  /** Holds user-endpoint answers until this many are waiting, then releases them together (races on purpose). */
  gateUserEndpoint(count: number): void;
  close(): Promise<void>;
}

interface Grant {
  person: FakePerson;
  redirectUri: string;
  challenge: string;
  nonce: string;
  used: boolean;
}

const PATHS: Record<Exclude<FakeProviderKind, 'wechat'>, { authorize: string; token: string; user: string }> = {
  github: { authorize: '/login/oauth/authorize', token: '/login/oauth/access_token', user: '/user' },
  linuxdo: { authorize: '/oauth2/authorize', token: '/oauth2/token', user: '/api/user' },
  oidc: { authorize: '/authorize', token: '/token', user: '/userinfo' },
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => resolve(body));
  });
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export interface FakeOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  /** Refuse an authorisation request without a PKCE S256 challenge (OAuth 2.1 servers do). */
  requirePkce?: boolean;
  /** The userinfo answer in another layout than the standard OIDC claims (a custom provider's own JSON). */
  userinfo?: (person: FakePerson) => unknown;
}

/** A provider that keeps its user under `data.user` with its own names: the settings map them by dotted path. */
export const NESTED_CLAIMS = (person: FakePerson) => ({
  code: 0,
  data: {
    user: {
      uid: Number(person.id),
      login: person.login,
      profile: { nickname: person.name },
      emails: [{ value: person.email, primary: true }],
    },
  },
});

export async function startFakeOAuth(kind: FakeProviderKind, options: FakeOAuthOptions = {}): Promise<FakeOAuthServer> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, FakePerson>();
  let baseUrl = '';

  const fake: FakeOAuthServer = {
    kind,
    baseUrl: '',
    clientId: options.clientId ?? `${kind}-client`,
    clientSecret: options.clientSecret ?? `${kind}-secret`,
    endpoints: { authorize: '', token: '', user: '', wellKnown: '' },
    person: null,
    registeredCallback: '',
    wechatCodes: new Map(),
    wechatToken: 'wechat-server-token',
    received: [],
    gateUserEndpoint(count: number) {
      gate = { count, waiting: [] };
    },
    close: async () => undefined,
  };
  let gate: { count: number; waiting: Array<() => void> } | null = null;
  const passGate = (): Promise<void> => {
    const current = gate;
    if (!current) return Promise.resolve();
    return new Promise((resolve) => {
      current.waiting.push(resolve);
      if (current.waiting.length >= current.count) {
        gate = null;
        for (const release of current.waiting) release();
      }
    });
  };

  const idToken = (grant: Grant): string => {
    const now = Math.floor(Date.now() / 1000);
    const header = base64url({ alg: 'HS256', typ: 'JWT' });
    const claims = base64url({
      iss: baseUrl,
      sub: String(grant.person.id),
      aud: fake.clientId,
      iat: now,
      exp: now + 600,
      ...(grant.nonce ? { nonce: grant.nonce } : {}),
    });
    const signature = createHmac('sha256', fake.clientSecret).update(`${header}.${claims}`).digest('base64url');
    return `${header}.${claims}.${signature}`;
  };

  const authorize = (query: Record<string, string>, response: ServerResponse) => {
    if (query.client_id !== fake.clientId) return sendJson(response, 400, { error: 'invalid_client' });
    if (!fake.person) return sendJson(response, 401, { error: 'login_required' });
    if (options.requirePkce && (!query.code_challenge || query.code_challenge_method !== 'S256')) {
      return sendJson(response, 400, { error: 'invalid_request', error_description: 'PKCE S256 is required' });
    }
    const redirectUri = query.redirect_uri || fake.registeredCallback;
    const code = randomBytes(12).toString('hex');
    grants.set(code, {
      person: fake.person,
      redirectUri: query.redirect_uri ?? '',
      challenge: query.code_challenge ?? '',
      nonce: query.nonce ?? '',
      used: false,
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    response.writeHead(302, { location: target.toString() });
    response.end();
  };

  /** The code's grant, once: a second exchange of the same code fails as real servers do. */
  const redeem = (code: string | undefined): Grant | null => {
    const grant = code ? grants.get(code) : undefined;
    if (!grant || grant.used) return null;
    grant.used = true;
    return grant;
  };

  const issueToken = (person: FakePerson): string => {
    const token = randomBytes(16).toString('hex');
    tokens.set(token, person);
    return token;
  };

  const token = (request: IncomingMessage, body: string, response: ServerResponse) => {
    if (kind === 'github') {
      const input = String(request.headers['content-type']).includes('json')
        ? (JSON.parse(body || '{}') as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(body));
      if (input.client_id !== fake.clientId || input.client_secret !== fake.clientSecret) {
        return sendJson(response, 200, { error: 'incorrect_client_credentials' });
      }
      const grant = redeem(input.code);
      if (!grant) {
        return sendJson(response, 200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
      }
      return sendJson(response, 200, {
        access_token: issueToken(grant.person),
        token_type: 'bearer',
        scope: 'user:email',
      });
    }
    const form = Object.fromEntries(new URLSearchParams(body));
    let clientId = form.client_id;
    let clientSecret = form.client_secret;
    const basic = /^Basic (.+)$/i.exec(String(request.headers.authorization ?? ''));
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      clientSecret = decodeURIComponent(secret ?? '');
    }
    if (kind === 'linuxdo' && !basic) return sendJson(response, 401, { error: 'invalid_client' });
    if (clientId !== fake.clientId || clientSecret !== fake.clientSecret) {
      return sendJson(response, 401, { error: 'invalid_client' });
    }
    if (form.grant_type !== 'authorization_code') return sendJson(response, 400, { error: 'unsupported_grant_type' });
    const grant = redeem(form.code);
    if (!grant) return sendJson(response, 400, { error: 'invalid_grant', error_description: 'unknown or used code' });
    if (grant.redirectUri && form.redirect_uri !== grant.redirectUri) {
      return sendJson(response, 400, { error: 'invalid_grant', error_description: 'redirect_uri mismatch' });
    }
    if (grant.challenge) {
      const verifier = form.code_verifier ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
        return sendJson(response, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
    }
    const answer: Record<string, unknown> = {
      access_token: issueToken(grant.person),
      token_type: 'Bearer',
      expires_in: 3600,
    };
    if (kind === 'oidc') answer.id_token = idToken(grant);
    return sendJson(response, 200, answer);
  };

  const user = (request: IncomingMessage, response: ServerResponse) => {
    const bearer = /^Bearer (.+)$/i.exec(String(request.headers.authorization ?? ''));
    const person = bearer ? tokens.get(bearer[1]!) : undefined;
    if (!person) return sendJson(response, 401, { message: 'Bad credentials' });
    if (kind === 'github') {
      return sendJson(response, 200, {
        id: Number(person.id),
        login: person.login ?? `user${person.id}`,
        name: person.name ?? null,
        email: person.email ?? null,
      });
    }
    if (kind === 'linuxdo') {
      return sendJson(response, 200, {
        id: Number(person.id),
        username: person.login ?? `user${person.id}`,
        name: person.name ?? '',
        active: person.active ?? true,
        silenced: person.silenced ?? false,
        trust_level: 2,
      });
    }
    if (options.userinfo) return sendJson(response, 200, options.userinfo(person));
    return sendJson(response, 200, {
      sub: String(person.id),
      preferred_username: person.login,
      name: person.name,
      email: person.email,
      email_verified: person.email_verified ?? true,
    });
  };

  const wechat = (request: IncomingMessage, query: Record<string, string>, response: ServerResponse) => {
    if (request.headers.authorization !== fake.wechatToken) {
      return sendJson(response, 200, { success: false, message: 'token 错误' });
    }
    const openid = query.code ? fake.wechatCodes.get(query.code) : undefined;
    if (!openid) return sendJson(response, 200, { success: false, message: '验证码错误或已过期' });
    fake.wechatCodes.delete(query.code!);
    return sendJson(response, 200, { success: true, message: '', data: openid });
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', baseUrl);
    const query = Object.fromEntries(url.searchParams);
    const body = await readBody(request);
    fake.received.push({ method: request.method ?? 'GET', path: url.pathname, query, headers: request.headers, body });
    if (kind === 'wechat') {
      if (url.pathname === '/api/wechat/user') return wechat(request, query, response);
      return sendJson(response, 404, { success: false, message: 'not found' });
    }
    const paths = PATHS[kind];
    if (url.pathname === '/.well-known/openid-configuration' && kind === 'oidc') {
      return sendJson(response, 200, {
        issuer: baseUrl,
        authorization_endpoint: fake.endpoints.authorize,
        token_endpoint: fake.endpoints.token,
        userinfo_endpoint: fake.endpoints.user,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === paths.authorize && request.method === 'GET') return authorize(query, response);
    if (url.pathname === paths.token && request.method === 'POST') return token(request, body, response);
    if (url.pathname === paths.user && request.method === 'GET') {
      await passGate();
      return user(request, response);
    }
    return sendJson(response, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  fake.baseUrl = baseUrl;
  if (kind !== 'wechat') {
    const paths = PATHS[kind];
    fake.endpoints = {
      authorize: `${baseUrl}${paths.authorize}`,
      token: `${baseUrl}${paths.token}`,
      user: `${baseUrl}${paths.user}`,
      wellKnown: `${baseUrl}/.well-known/openid-configuration`,
    };
  }
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** The env vars that point the gateway's GitHub and LinuxDO endpoints at fakes. */
export function fakeOAuthEnv(fakes: { github?: FakeOAuthServer; linuxdo?: FakeOAuthServer }): Record<string, string> {
  const env: Record<string, string> = {};
  if (fakes.github) {
    env.GITHUB_AUTHORIZE_ENDPOINT = fakes.github.endpoints.authorize;
    env.GITHUB_TOKEN_ENDPOINT = fakes.github.endpoints.token;
    env.GITHUB_USER_ENDPOINT = fakes.github.endpoints.user;
  }
  if (fakes.linuxdo) {
    env.LINUX_DO_AUTHORIZE_ENDPOINT = fakes.linuxdo.endpoints.authorize;
    env.LINUX_DO_TOKEN_ENDPOINT = fakes.linuxdo.endpoints.token;
    env.LINUX_DO_USER_ENDPOINT = fakes.linuxdo.endpoints.user;
  }
  return env;
}

/** Signs Telegram login-widget data the way Telegram does, for tests. */
export function signTelegramLogin(fields: Record<string, string>, botToken: string): Record<string, string> {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHash('sha256').update(botToken).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(checkString).digest('hex') };
}
