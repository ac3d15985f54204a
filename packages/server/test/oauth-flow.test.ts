import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../src/http/envelope.js';
import {
  decodeFlow,
  encodeFlow,
  type OAuthFlow,
  pkceChallenge,
  stateMatches,
} from '../src/services/accounts/oauth/flow.js';
import { verifyTelegramLogin } from '../src/services/accounts/oauth/telegram.js';
import { signTelegramLogin } from './helpers/fake-oauth.js';

const SECRET = 'flow-secret-0123456789abcdef';
const flow: OAuthFlow = {
  state: 'state-1',
  provider: 'oidc',
  intent: 'login',
  userId: 0,
  aff: '',
  verifier: 'v'.repeat(64),
  nonce: 'n',
  redirectUri: 'https://gateway.example/oauth/oidc',
  expiresAt: 2_000,
};

const failureCode = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiFailure) return error.code;
    throw error;
  }
  return 'no failure';
};

describe('the OAuth flow cookie', () => {
  it('round-trips a flow until it expires', () => {
    const cookie = encodeFlow(flow, SECRET);
    expect(decodeFlow(cookie, SECRET, 1_999)).toEqual(flow);
    expect(decodeFlow(cookie, SECRET, 2_001)).toBeNull();
  });

  it('refuses another secret, an edited payload, and garbage', () => {
    const cookie = encodeFlow(flow, SECRET);
    expect(decodeFlow(cookie, 'another-secret-0123456789', 1_000)).toBeNull();
    const [, mac] = cookie.split('.');
    const edited = Buffer.from(JSON.stringify({ ...flow, intent: 'bind', userId: 1 })).toString('base64url');
    expect(decodeFlow(`${edited}.${mac}`, SECRET, 1_000)).toBeNull();
    for (const junk of [undefined, '', 'no-dot', '.x', 'a.b.c']) expect(decodeFlow(junk, SECRET, 1_000)).toBeNull();
  });

  it('compares states exactly', () => {
    expect(stateMatches(flow, 'state-1')).toBe(true);
    expect(stateMatches(flow, 'state-2')).toBe(false);
    expect(stateMatches(flow, 'state-1x')).toBe(false);
  });

  it('derives the PKCE challenge as RFC 7636 appendix B does', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });
});

describe('Telegram login data', () => {
  const token = '1:bot-token';
  const now = 1_700_000_000;
  const fields = { id: '42', first_name: 'Ann', username: 'ann', auth_date: String(now - 10) };

  it('accepts signed data and ignores the console’s own language field', () => {
    const identity = verifyTelegramLogin({ ...signTelegramLogin(fields, token), lang: 'en' }, token, now);
    expect(identity).toMatchObject({ id: '42', displayName: 'Ann' });
  });

  it('refuses a changed field, an added field, no bot token, and data older than a day or from the future', () => {
    const signed = signTelegramLogin(fields, token);
    expect(failureCode(() => verifyTelegramLogin({ ...signed, first_name: 'Eve' }, token, now))).toBe(
      'telegram_data_invalid',
    );
    expect(failureCode(() => verifyTelegramLogin({ ...signed, photo_url: 'https://x' }, token, now))).toBe(
      'telegram_data_invalid',
    );
    expect(failureCode(() => verifyTelegramLogin(signed, '', now))).toBe('telegram_data_invalid');
    expect(failureCode(() => verifyTelegramLogin(signed, token, now + 86_400))).toBe('telegram_data_expired');
    expect(failureCode(() => verifyTelegramLogin(signed, token, now - 3_600))).toBe('telegram_data_expired');
  });
});
