import type { Language } from '@gateway/shared';
import { type ThemeConfig, theme } from 'antd';
import type { ThemeMode } from './theme-mode';

// One brand colour, matched by the default logo; everything else is antd's tokens so dark mode is complete.
export const BRAND_COLOR = '#4f46e5';

const SYSTEM_FONTS = "-apple-system, BlinkMacSystemFont, 'Segoe UI'";
const LATIN_FONTS = "Roboto, 'Helvetica Neue', Arial";
const CJK_FONTS = "'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC'";

/**
 * Chinese and Japanese put the CJK fonts first (their full-width punctuation is right there); every other language
 * puts Latin fonts first, else a machine with a CJK font (most Linux desktops) draws French apostrophes and Russian
 * quotes with full-width CJK glyphs ("d’ API").
 */
export function fontFamilyFor(lang: Language): string {
  const cjk = lang === 'zh' || lang === 'zh-TW' || lang === 'ja';
  const [first, second] = cjk ? [CJK_FONTS, LATIN_FONTS] : [LATIN_FONTS, CJK_FONTS];
  return `${SYSTEM_FONTS}, ${first}, ${second}, sans-serif`;
}

export function buildAntdTheme(mode: ThemeMode, lang: Language = 'zh'): ThemeConfig {
  const dark = mode === 'dark';
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: BRAND_COLOR,
      colorInfo: BRAND_COLOR,
      borderRadius: 8,
      fontFamily: fontFamilyFor(lang),
    },
    components: {
      Layout: {
        headerBg: dark ? '#141414' : '#ffffff',
        headerHeight: 64,
        headerPadding: '0 16px',
        bodyBg: dark ? '#0a0a0a' : '#f5f6fa',
        siderBg: dark ? '#141414' : '#ffffff',
        footerBg: 'transparent',
        footerPadding: '16px 24px',
        triggerBg: dark ? '#1f1f1f' : '#ffffff',
        triggerColor: dark ? 'rgba(255,255,255,0.65)' : 'rgba(0,0,0,0.65)',
      },
      Menu: {
        itemBorderRadius: 8,
        activeBarBorderWidth: 0,
        horizontalLineHeight: '62px',
      },
    },
  };
}
