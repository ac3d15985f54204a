import { describe, expect, it } from 'vitest';
import { signedSparkUrl } from './sign.js';

describe('signedSparkUrl', () => {
  it("signs iFlytek's documented example", () => {
    // The documentation's example: APISecret MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi, date Fri, 05 May 2023 10:43:39 GMT,
    // host spark-api.xf-yun.com, GET /v1.1/chat; its digest starts cf 98 07 76 ed e9 c5 55 as the page prints.
    // The signature and the authorization below were worked with openssl dgst -hmac and base64.
    const url = signedSparkUrl(
      'wss://spark-api.xf-yun.com/v1.1/chat',
      'addd2272b6d8b7c8abdd79531420ca3b',
      'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi',
      'Fri, 05 May 2023 10:43:39 GMT',
    );
    const query = new URL(url).searchParams;
    expect(url.startsWith('wss://spark-api.xf-yun.com/v1.1/chat?')).toBe(true);
    expect(query.get('host')).toBe('spark-api.xf-yun.com');
    expect(query.get('date')).toBe('Fri, 05 May 2023 10:43:39 GMT');
    expect(query.get('authorization')).toBe(
      'YXBpX2tleT0iYWRkZDIyNzJiNmQ4YjdjOGFiZGQ3OTUzMTQyMGNhM2IiLCBhbGdvcml0aG09ImhtYWMtc2hhMjU2IiwgaGVhZGVycz0iaG9zdCBk' +
        'YXRlIHJlcXVlc3QtbGluZSIsIHNpZ25hdHVyZT0iejVnSGR1M3B4VlY0QURNeWs0Njd3T1dEUTlxNkJRelIzbmZNVGpjL0RhUT0i',
    );
    expect(Buffer.from(query.get('authorization')!, 'base64').toString()).toContain(
      'signature="z5gHdu3pxVV4ADMyk467wOWDQ9q6BQzR3nfMTjc/DaQ="',
    );
  });

  it('signs the host with its port and the path of a self-hosted base URL', () => {
    const url = signedSparkUrl('ws://127.0.0.1:8080/v3.5/chat', 'key', 'secret', 'Fri, 05 May 2023 10:43:39 GMT');
    const origin = Buffer.from(new URL(url).searchParams.get('authorization')!, 'base64').toString();
    // openssl: printf 'host: 127.0.0.1:8080\ndate: Fri, 05 May 2023 10:43:39 GMT\nGET /v3.5/chat HTTP/1.1' | …
    expect(new URL(url).searchParams.get('host')).toBe('127.0.0.1:8080');
    expect(origin).toContain('signature="ErsQ4PC9zBhfMMXT1Th1OR0XRKn+p1iDW17GowPZ0Ug="');
  });
});
