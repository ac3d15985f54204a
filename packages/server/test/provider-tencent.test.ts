import * as tencentcloud from 'tencentcloud-sdk-nodejs-hunyuan';
import { describe, expect, it } from 'vitest';
import { vendorChatSuite } from './helpers/vendor-chat.js';
import {
  startTencentMock,
  TENCENT_KEY,
  TENCENT_SECRET_ID,
  TENCENT_SECRET_KEY,
} from './mock-upstream/providers/tencent.js';

// biome-ignore lint/suspicious/noExplicitAny: raw wire bodies; the assertions on them are the type check.
type WireJson = any;

describe('Tencent Hunyuan (type 23) through the gateway', () => {
  const suite = vendorChatSuite({
    vendor: 'tencent',
    type: 23,
    key: TENCENT_KEY,
    model: 'hunyuan-lite',
    start: startTencentMock,
  });

  const sdk = (secretKey: string) =>
    new tencentcloud.hunyuan.v20230901.Client({
      credential: { secretId: TENCENT_SECRET_ID, secretKey },
      region: '',
      profile: {
        httpProfile: { endpoint: suite.mock.baseUrl.replace('http://', ''), protocol: 'http://', reqMethod: 'POST' },
      },
    });

  it("the mock's signature check agrees with Tencent's own SDK, and refuses a wrong secret", async () => {
    const answer = await sdk(TENCENT_SECRET_KEY).ChatCompletions({
      Model: 'hunyuan-lite',
      Messages: [{ Role: 'user', Content: 'Say hello' }],
    });
    expect((answer as WireJson).Choices[0].Message.Content).toBe('Hello from tencent mock: hunyuan-lite');
    await expect(
      sdk('wrong-secret').ChatCompletions({ Model: 'hunyuan-lite', Messages: [{ Role: 'user', Content: 'hi' }] }),
    ).rejects.toMatchObject({ code: 'AuthFailure.SignatureFailure' });
  });

  it('sends the Hunyuan body with the action, version, timestamp and a TC3 signature', async () => {
    await suite.openai.chat.completions.create({
      model: 'hunyuan-lite',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      temperature: 0.5,
    });
    const request = suite.mock.requests[0]!;
    expect(request.path).toBe('/');
    expect(request.headers).toMatchObject({ 'x-tc-action': 'ChatCompletions', 'x-tc-version': '2023-09-01' });
    expect(request.headers.authorization).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKIDmockSecretId\/\d{4}-\d{2}-\d{2}\/hunyuan\/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=[0-9a-f]{64}$/,
    );
    expect(request.body as WireJson).toEqual({
      Model: 'hunyuan-lite',
      Messages: [
        { Role: 'system', Content: 'Be brief.' },
        { Role: 'user', Content: 'Say hello' },
      ],
      Stream: false,
      Temperature: 0.5,
    });
  });
});
