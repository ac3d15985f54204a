import { describe, expect, it } from 'vitest';
import { buildChatLink, parseChatLinks } from './chat-links';

describe('chat links', () => {
  it('reads the operator list, parsed or as JSON text', () => {
    const links = [{ NextChat: 'https://chat.example/#/?key={key}&url={address}' }];
    expect(parseChatLinks(links)).toEqual({
      ok: true,
      links: [{ name: 'NextChat', template: 'https://chat.example/#/?key={key}&url={address}' }],
    });
    expect(parseChatLinks(JSON.stringify(links))).toEqual(parseChatLinks(links));
    expect(parseChatLinks(undefined)).toEqual({ ok: true, links: [] });
    expect(parseChatLinks('[]')).toEqual({ ok: true, links: [] });
  });

  it('refuses a broken configuration', () => {
    for (const raw of ['{not json', '{"a":"b"}', [1], [{ a: 2 }], [{}], [{ a: '' }]]) {
      expect(parseChatLinks(raw)).toEqual({ ok: false });
    }
  });

  it('fills the key with its sk- prefix and the encoded address', () => {
    expect(buildChatLink('https://x/?k={key}&u={address}&again={key}', 'abc', 'https://gw.example.com')).toBe(
      'https://x/?k=sk-abc&u=https%3A%2F%2Fgw.example.com&again=sk-abc',
    );
  });
});
