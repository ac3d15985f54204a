export interface Envelope<T = unknown> {
  status: number;
  success: boolean;
  message: string;
  data: T;
}

/**
 * A browser-like client for OAuth journeys: keeps every cookie the gateway sets (the session and the OAuth flow
 * cookie), sends New-Api-User once signed in as the console does, and follows the provider's real redirect.
 */
export class OAuthBrowser {
  private readonly cookies = new Map<string, string>();
  userId: number | null = null;

  constructor(
    readonly baseUrl: string,
    private readonly language = 'zh',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }

  forgetCookie(name: string): void {
    this.cookies.delete(name);
  }

  copyCookieTo(other: OAuthBrowser, name: string): void {
    const value = this.cookies.get(name);
    if (value !== undefined) other.cookies.set(name, value);
  }

  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        'accept-language': this.language,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(this.userId !== null ? { 'new-api-user': String(this.userId) } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.remember(response);
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    return { status: response.status, success: json.success, message: json.message, data: json.data };
  }

  get = <T = unknown>(path: string) => this.call<T>('GET', path);
  post = <T = unknown>(path: string, body: unknown = {}) => this.call<T>('POST', path, body);

  async passwordLogin(username: string, password: string): Promise<void> {
    const result = await this.post<{ id: number }>('/api/user/login', { username, password });
    if (!result.success) throw new Error(`login failed: ${result.message}`);
    this.userId = result.data.id;
  }

  /** Visits the provider's authorisation URL and returns where its 302 sends the browser back to. */
  async authorizeAt(url: string): Promise<URL> {
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status !== 302 || !location) {
      throw new Error(`provider did not redirect: HTTP ${response.status} ${await response.text()}`);
    }
    return new URL(location);
  }

  /** The console's journey: start, go to the provider, come back with code and state, hand them over. */
  async providerJourney<T = unknown>(
    // A built-in provider's name or a custom provider's slug.
    provider: string,
    options: { aff?: string; intent?: 'login' | 'bind' } = {},
  ): Promise<{ start: Envelope<{ url: string; state: string }>; callback: URL; result: Envelope<T> }> {
    const query = new URLSearchParams();
    if (options.aff) query.set('aff', options.aff);
    if (options.intent) query.set('intent', options.intent);
    const start = await this.get<{ url: string; state: string }>(`/api/oauth/${provider}/authorize?${query}`);
    if (!start.success) throw new Error(`authorize failed: ${start.message}`);
    const callback = await this.authorizeAt(start.data.url);
    const result = await this.get<T>(`/api/oauth/${provider}${callback.search}`);
    if (result.success && result.message !== 'bind') this.userId = (result.data as { id: number }).id;
    return { start, callback, result };
  }
}

/**
 * Two GitHub sign-ins of the same newcomer whose callbacks reach the gateway at the same moment (each tab may talk
 * to another node): both learn who the person is from the gated user endpoint together, then race to the account.
 */
export async function raceGithubNewcomer(
  tabs: OAuthBrowser[],
  github: { gateUserEndpoint(count: number): void },
): Promise<Array<Envelope<{ id: number }>>> {
  const callbacks = await Promise.all(
    tabs.map(async (tab) => {
      const start = await tab.get<{ url: string }>('/api/oauth/github/authorize');
      return tab.authorizeAt(start.data.url);
    }),
  );
  github.gateUserEndpoint(tabs.length);
  return Promise.all(tabs.map((tab, index) => tab.get<{ id: number }>(`/api/oauth/github${callbacks[index]!.search}`)));
}
