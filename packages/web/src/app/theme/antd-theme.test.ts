import { describe, expect, it } from 'vitest';
import { fontFamilyFor } from './antd-theme';

describe('the console font for a language', () => {
  const position = (stack: string, font: string) => stack.indexOf(font);

  it('puts Latin fonts before CJK fonts for languages written in Latin or Cyrillic letters', () => {
    for (const lang of ['en', 'fr', 'ru', 'vi'] as const) {
      const stack = fontFamilyFor(lang);
      expect(position(stack, 'Arial')).toBeLessThan(position(stack, "'Noto Sans CJK SC'"));
      expect(position(stack, 'Roboto')).toBeLessThan(position(stack, "'Microsoft YaHei'"));
    }
  });

  it('puts CJK fonts first for Chinese and Japanese', () => {
    for (const lang of ['zh', 'zh-TW', 'ja'] as const) {
      const stack = fontFamilyFor(lang);
      expect(position(stack, "'Noto Sans CJK SC'")).toBeLessThan(position(stack, 'Arial'));
    }
  });
});
