import { describe, expect, it } from 'vitest';
import { awsSignerAuthorization } from '../../../../test/mock-upstream/providers/bedrock-wire.js';
import { type SigV4Request, sigV4Authorization } from './sigv4.js';

// AWS's SigV4 test suite (aws-sig-v4-test-suite): credentials AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY,
// region us-east-1, service `service`, 2015-08-30T12:36:00Z; the expected signatures are the suite's.
const SUITE = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 'service',
  headers: { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' },
  path: '/',
  payload: '',
};

describe('sigV4Authorization', () => {
  it.each([
    {
      name: 'get-vanilla',
      request: { ...SUITE, method: 'GET' },
      signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    },
    {
      name: 'post-vanilla',
      request: { ...SUITE, method: 'POST' },
      signature: '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b',
    },
  ])("AWS's $name vector", ({ request, signature }) => {
    expect(sigV4Authorization(request)).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, ' +
        `SignedHeaders=host;x-amz-date, Signature=${signature}`,
    );
  });

  // AWS's own signer as the oracle for what the vectors above do not cover: a Bedrock call's path, whose model id
  // is percent-encoded once on the wire and again in the canonical request, a port in the host, a query.
  it.each<{ name: string; request: SigV4Request; query?: Record<string, string> }>([
    {
      name: 'a Converse call with a model id holding a colon',
      request: {
        ...SUITE,
        service: 'bedrock',
        region: 'eu-west-1',
        method: 'POST',
        path: '/model/eu.anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse',
        headers: {
          'content-type': 'application/json',
          host: 'bedrock-runtime.eu-west-1.amazonaws.com',
          'x-amz-date': '20250102T030405Z',
        },
        payload: '{"messages":[{"role":"user","content":[{"text":"héllo  world"}]}]}',
      },
    },
    {
      name: 'a proxy base URL with a port, spaces in a header value, a query',
      request: {
        ...SUITE,
        method: 'POST',
        path: '/prefix/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ainference-profile%2Fx/invoke',
        query: 'b=2&a=1 2',
        headers: { host: '127.0.0.1:8443', 'x-amz-date': '20250102T030405Z', 'x-custom': '  a   b  ' },
        payload: '{}',
      },
      query: { b: '2', a: '1 2' },
    },
  ])('agrees with AWS’s signer: $name', async ({ request, query }) => {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const expected = await awsSignerAuthorization(
      { method: request.method, path: request.path, query, headers, body: String(request.payload) },
      { accessKeyId: request.accessKeyId, secretAccessKey: request.secretAccessKey },
      request.region,
      request.service,
    );
    expect(sigV4Authorization(request)).toBe(expected);
  });
});
