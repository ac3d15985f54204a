import { describe, expect, it } from 'vitest';
import { capText, scrubText } from './body-text.js';
import { requestText } from './request-text.js';

describe('scrubText', () => {
  it('replaces data URLs by their decoded size, parameters and all', () => {
    const wav = Buffer.alloc(10).toString('base64'); // "AAAAAAAAAAAAAA==": 10 bytes
    expect(scrubText(`{"a":"data:audio/wav;rate=16000;base64,${wav}","b":1}`, [])).toBe(
      '{"a":"[data:audio/wav;base64 omitted, 10 bytes]","b":1}',
    );
    expect(scrubText('see data:;base64,QUJD here', [])).toBe(
      'see [data:application/octet-stream;base64 omitted, 3 bytes] here',
    );
  });

  it('replaces a JSON string that is one long base64 run, and leaves short ones', () => {
    const long = Buffer.alloc(900).toString('base64'); // 1200 characters
    expect(scrubText(`{"data":"${long}","id":"QUJD"}`, [])).toBe('{"data":"[base64 omitted, 900 bytes]","id":"QUJD"}');
  });

  it('redacts every known secret of eight characters or more, and makes NUL visible', () => {
    expect(scrubText('k=abcdefgh1234 x abcdefgh1234 short=abc\u0000', ['abcdefgh1234', 'abc'])).toBe(
      'k=[redacted] x [redacted] short=abc\\u0000',
    );
  });
});

describe('capText', () => {
  it('keeps a body within the cap as it is', () => {
    expect(capText('héllo', 6)).toBe('héllo');
  });

  it('cuts at a character boundary and names the whole length', () => {
    // "a" + "€" (3 bytes) + "😀" (4 bytes) = 8 bytes; at 3 bytes the euro sign would be split.
    expect(capText('a€😀', 3)).toBe('a\n…[cut: 8 bytes in all]');
    expect(capText('a€😀', 4)).toBe('a€\n…[cut: 8 bytes in all]');
    expect(capText('a€😀', 7)).toBe('a€\n…[cut: 8 bytes in all]');
  });

  it('marks a stream prefix with the length of everything that was sent', () => {
    expect(capText('abc', 10, 5000)).toBe('abc\n…[cut: 5000 bytes in all]');
  });
});

describe('requestText', () => {
  it('lists a form upload with each file as a marker', () => {
    const body = Buffer.from(
      '--XB\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n' +
        '--XB\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n' +
        '\u0001\u0002\u0003\u0004\r\n--XB--\r\n',
    );
    expect(requestText(body, 'multipart/form-data; boundary=XB')).toBe(
      '{"model":"whisper-1","file":"[file a.mp3, audio/mpeg, 4 bytes]"}',
    );
  });

  it('writes JSON bodies in the order the client sent them', () => {
    expect(requestText({ z: 1, a: [true] }, 'application/json')).toBe('{"z":1,"a":[true]}');
    expect(requestText(undefined, undefined)).toBe('');
  });
});
