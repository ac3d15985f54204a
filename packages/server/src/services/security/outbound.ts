import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';

/**
 * The one way the server fetches a URL that an admin or user typed (channel base URLs for model lists and balances,
 * webhooks, OIDC discovery, image URLs). It refuses private, loopback, link-local and metadata addresses unless
 * allowed, checks the address it actually connects to (so DNS tricks and rebinding do not help), follows no
 * redirects, and caps time and body size. Relay traffic to a channel's own base URL does not come through here:
 * operators point channels at self-hosted models on private addresses on purpose.
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** `::ffff:127.0.0.1` and `::ffff:7f00:1` are IPv4 addresses in IPv6 clothing: judge them as IPv4. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const high = Number.parseInt(hex[1]!, 16);
    const low = Number.parseInt(hex[2]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return !blocked.check(v4, 'ipv4');
    return !blocked.check(bare, 'ipv6');
  }
  return !blocked.check(bare, 'ipv4');
}

export class OutboundError extends Error {
  constructor(
    message: string,
    readonly reason: 'blocked' | 'invalid_url' | 'redirect' | 'too_large' | 'timeout' | 'network' | 'status',
    readonly status?: number,
    /** The refused host, for a message in the caller's language. */
    readonly host?: string,
  ) {
    super(message);
  }
}

export interface OutboundOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as Array<{ address: string; family: number }>;
    const bad = list.find((entry) => !isPublicAddress(entry.address));
    if (bad) {
      return callback(
        new OutboundError(`refused: ${hostname} resolves to ${bad.address}`, 'blocked', undefined, hostname),
        '',
        0,
      );
    }
    if (options.all) return callback(null, list as never, 0);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};

/**
 * One agent per policy: connections are reused, and the guarded one checks every address it connects to. undici's
 * full client is loaded on the first outbound call (sign-in providers, webhooks, balance checks), not at start:
 * the relay needs only its Agent, and the rest is megabytes of memory in every process.
 */
let client: Promise<{
  request: typeof import('undici').request;
  guarded: Dispatcher;
  open: Dispatcher;
}> | null = null;
function outboundClient() {
  client ??= import('undici').then(({ Agent, request }) => ({
    request,
    guarded: new Agent({ connect: { lookup: guardedLookup }, connections: 64 }),
    open: new Agent({ connections: 64 }),
  }));
  return client;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = unknown>(): T;
}

export async function outboundFetch(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  options: OutboundOptions,
): Promise<OutboundResponse> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundError(`invalid URL: ${url}`, 'invalid_url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new OutboundError(`only http and https URLs are allowed: ${url}`, 'invalid_url');
  }
  // WHATWG URL already turned decimal, hex and octal IPv4 forms into dotted ones, so one check covers them all.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new OutboundError(`refused: ${host} is not a public address`, 'blocked', undefined, host);
  }
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const { request, guarded, open } = await outboundClient();
  let response: Dispatcher.ResponseData;
  try {
    response = await request(parsed, {
      method: (init.method ?? 'GET') as 'GET',
      headers: init.headers,
      body: init.body,
      dispatcher: options.allowPrivate ? open : guarded,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    if (cause instanceof OutboundError) throw cause;
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError' || /timeout/i.test(String((error as Error).message))) {
      throw new OutboundError(`timed out after ${timeoutMs} ms`, 'timeout');
    }
    throw new OutboundError(`request failed: ${(cause as Error).message ?? String(cause)}`, 'network');
  }
  if (response.statusCode >= 300 && response.statusCode < 400) {
    await response.body.dump();
    throw new OutboundError(
      `refused to follow a redirect (HTTP ${response.statusCode})`,
      'redirect',
      response.statusCode,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      response.body.destroy();
      throw new OutboundError(`response larger than ${maxBytes} bytes`, 'too_large');
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return {
    status: response.statusCode,
    headers: response.headers,
    text,
    json<T>() {
      return JSON.parse(text) as T;
    },
  };
}

/**
 * Checks, when a URL is saved, what outboundFetch checks when it is used: an https address whose host (an IP in any
 * spelling, or a name and every address it resolves to) is public. The result says why it is refused, or null.
 */
export async function refusedPublicUrl(
  url: string,
  allowPrivate: boolean,
): Promise<'invalid' | 'not_https' | 'private' | 'unresolved' | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid';
  }
  if (parsed.protocol !== 'https:') return 'not_https';
  if (allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return isPublicAddress(host) ? null : 'private';
  const addresses = await new Promise<Array<{ address: string }> | null>((resolve) => {
    dnsLookup(host, { all: true }, (error, found) => resolve(error ? null : (found as Array<{ address: string }>)));
  });
  if (!addresses || addresses.length === 0) return 'unresolved';
  return addresses.every((entry) => isPublicAddress(entry.address)) ? null : 'private';
}
