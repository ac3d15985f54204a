import { describe, expect, it } from 'vitest';
import { readableBody } from './body-text';

describe('readableBody', () => {
  it('indents JSON and leaves streams and cut bodies as they were kept', () => {
    expect(readableBody('{"a":[1]}')).toEqual({ text: '{\n  "a": [\n    1\n  ]\n}', json: true });
    expect(readableBody('data: {"a":1}\n\n')).toEqual({ text: 'data: {"a":1}\n\n', json: false });
    const cut = '{"a":"xx\n…[cut: 90000 bytes in all]';
    expect(readableBody(cut)).toEqual({ text: cut, json: false });
  });
});
