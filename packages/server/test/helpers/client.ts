import { setupTokenOf } from './server.js';

/**
 * A console-like HTTP client: keeps the session cookie, sends New-Api-User once signed in, and returns the
 * envelope together with the HTTP status.
 */
export class ApiClient {
  private cookie = '';
  /** The passkey routes' ceremony cookie (path /api/user/passkey), sent like a browser sends it. */
  private ceremonyCookie = '';
  userId: number | null = null;

  constructor(
    readonly baseUrl: string,
    private readonly language = 'zh',
  ) {}

  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; success: boolean; message: string; data: T; headers: Headers }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        'accept-language': this.language,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie || this.ceremonyCookie ? { cookie: this.cookies(path) } : {}),
        ...(this.userId !== null ? { 'new-api-user': String(this.userId) } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie();
    for (const line of setCookie) {
      const pair = line.split(';')[0] ?? '';
      if (pair.startsWith('session=')) this.cookie = pair.endsWith('=') ? '' : pair;
      if (pair.startsWith('passkey_ceremony=')) this.ceremonyCookie = pair.endsWith('=') ? '' : pair;
    }
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    return {
      status: response.status,
      success: json.success,
      message: json.message,
      data: json.data,
      headers: response.headers,
    };
  }

  private cookies(path: string): string {
    const ceremony = path.startsWith('/api/user/passkey') ? this.ceremonyCookie : '';
    return [this.cookie, ceremony].filter(Boolean).join('; ');
  }

  get = <T = unknown>(path: string, headers?: Record<string, string>) => this.call<T>('GET', path, undefined, headers);
  post = <T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) =>
    this.call<T>('POST', path, body ?? {}, headers);
  put = <T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) =>
    this.call<T>('PUT', path, body ?? {}, headers);
  delete = <T = unknown>(path: string, headers?: Record<string, string>) =>
    this.call<T>('DELETE', path, undefined, headers);

  async login(username: string, password: string): Promise<void> {
    const result = await this.post<{ id: number }>('/api/user/login', { username, password });
    if (!result.success) throw new Error(`login failed: ${result.message}`);
    this.userId = result.data.id;
  }

  get sessionCookie(): string {
    return this.cookie;
  }
}

export const ROOT = { username: 'root', password: 'rootpass123' };

/** Runs first-run setup with the ROOT credentials and returns a client signed in as root. */
export async function setupAndLogin(baseUrl: string): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  const setup = await client.post('/api/setup', {
    ...ROOT,
    confirmPassword: ROOT.password,
    setup_token: setupTokenOf(baseUrl),
  });
  if (!setup.success) throw new Error(`setup failed: ${setup.message}`);
  await client.login(ROOT.username, ROOT.password);
  return client;
}

/** Creates an ordinary user directly in the database and returns a client signed in as that user. */
export async function signedInUser(
  baseUrl: string,
  repos: { users: { insert(user: { username: string; password: string; group?: string }): Promise<number> } },
  username: string,
  group = 'default',
): Promise<ApiClient> {
  const { hashPassword } = await import('../../src/auth/password.js');
  const password = `${username}-password`;
  await repos.users.insert({ username, password: await hashPassword(password), group });
  const client = new ApiClient(baseUrl);
  await client.login(username, password);
  return client;
}

/** What the family answers a caller whose role is too low: HTTP 200, success false, the reason, and no data. */
export const ROLE_REFUSED = { status: 200, success: false, message: '无权进行此操作，权限不足', data: undefined };

/** The parts of an answer that tell a role refusal (compare with ROLE_REFUSED). */
export function refusal(answer: { status: number; success: boolean; message: string; data: unknown }) {
  return { status: answer.status, success: answer.success, message: answer.message, data: answer.data };
}
