import { describe, expect, it } from 'vitest';
import { claimAt, claimText } from './custom-claims.js';

describe('claim paths into a provider’s user info', () => {
  const body = {
    sub: 'abc',
    id: 42,
    active: true,
    'https://example.com/claims.email': 'whole-key@example.com',
    data: { user: { uid: 7, profile: { nickname: ' Ada ' }, emails: [{ value: 'ada@example.com' }] } },
  };

  it('reads top-level, nested and array values, numbers and booleans as text', () => {
    expect(claimText(body, 'sub')).toBe('abc');
    expect(claimText(body, 'id')).toBe('42');
    expect(claimText(body, 'active')).toBe('true');
    expect(claimText(body, 'data.user.uid')).toBe('7');
    expect(claimText(body, 'data.user.profile.nickname')).toBe('Ada');
    expect(claimText(body, 'data.user.emails.0.value')).toBe('ada@example.com');
  });

  it('takes a key holding dots whole before walking it', () => {
    expect(claimText(body, 'https://example.com/claims.email')).toBe('whole-key@example.com');
  });

  it('answers nothing for a missing path, an object, an empty path or a walk through a value', () => {
    expect(claimText(body, 'data.user.missing')).toBe('');
    expect(claimText(body, 'data.user')).toBe('');
    expect(claimText(body, '')).toBe('');
    expect(claimAt(body, 'sub.length')).toBeUndefined();
    expect(claimAt(body, 'data.user.emails.5.value')).toBeUndefined();
  });
});
