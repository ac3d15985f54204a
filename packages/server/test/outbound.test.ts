import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress, OutboundError, outboundFetch } from '../src/services/security/outbound.js';
import { SecretBox } from '../src/services/security/secret-box.js';

describe('outbound client: address policy', () => {
  it.each([
    '127.0.0.1',
    '::1',
    '0.0.0.0',
    '169.254.169.254',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    'fd00::1',
    'fe80::1',
    '::',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('outbound client: refusals over real sockets', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
        return res.end();
      }
      if (req.url === '/big') return res.end('x'.repeat(2048));
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const refused = async (url: string) => {
    const before = hits.length;
    const error = await outboundFetch(url, {}, { allowPrivate: false }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe('blocked');
    expect(hits.length).toBe(before);
  };

  it.each([
    (p: number) => `http://127.0.0.1:${p}/`,
    (p: number) => `http://[::1]:${p}/`,
    (p: number) => `http://0.0.0.0:${p}/`,
    (p: number) => `http://2130706433:${p}/`,
    (p: number) => `http://0x7f000001:${p}/`,
    (p: number) => `http://0177.0.0.1:${p}/`,
    (p: number) => `http://127.1:${p}/`,
    (p: number) => `http://[::ffff:127.0.0.1]:${p}/`,
    () => 'http://169.254.169.254/latest/meta-data/',
  ])('refuses %s before sending anything', async (build) => {
    await refused(build(port));
  });

  it('refuses host names that resolve to loopback, checked at connect time', async () => {
    // No name list: the resolver guard sees the address DNS (or /etc/hosts) returns and refuses it.
    await refused(`http://localhost:${port}/via-dns`);
    await refused(`http://LOCALHOST:${port}/via-dns`);
    const own = hostname();
    const ownAddresses = await lookup(own, { all: true }).catch(() => []);
    if (ownAddresses.length > 0 && ownAddresses.every((entry) => !isPublicAddress(entry.address))) {
      await refused(`http://${own}:${port}/via-dns`);
    }
  });

  it('does not follow a redirect, even to a loopback target', async () => {
    const error = await outboundFetch(`http://127.0.0.1:${port}/redirect`, {}, { allowPrivate: true }).catch(
      (e: unknown) => e,
    );
    expect((error as OutboundError).reason).toBe('redirect');
    expect(hits).not.toContain('/secret');
  });

  it('refuses non-http schemes', async () => {
    const error = await outboundFetch('file:///etc/passwd', {}, { allowPrivate: true }).catch((e: unknown) => e);
    expect((error as OutboundError).reason).toBe('invalid_url');
  });

  it('caps body size and time', async () => {
    const big = await outboundFetch(`http://127.0.0.1:${port}/big`, {}, { allowPrivate: true, maxBytes: 1024 }).catch(
      (e: unknown) => e,
    );
    expect((big as OutboundError).reason).toBe('too_large');
    const slow = await outboundFetch(`http://127.0.0.1:${port}/slow`, {}, { allowPrivate: true, timeoutMs: 200 }).catch(
      (e: unknown) => e,
    );
    expect((slow as OutboundError).reason).toBe('timeout');
  });

  it('fetches when private addresses are explicitly allowed', async () => {
    const response = await outboundFetch(`http://127.0.0.1:${port}/ok`, {}, { allowPrivate: true });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ ok: true });
  });
});

describe('secret box for channel keys', () => {
  it('encrypts with a fresh IV each time and opens with the same secret only', () => {
    const box = new SecretBox('secret-one');
    const sealed = box.seal('sk-upstream-key');
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain('sk-upstream-key');
    expect(box.seal('sk-upstream-key')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('sk-upstream-key');
    expect(() => new SecretBox('secret-two').open(sealed)).toThrow();
  });

  it('passes through plaintext keys imported from the Go gateway', () => {
    expect(new SecretBox('x').open('sk-legacy-plain')).toBe('sk-legacy-plain');
  });
});
