import { type ThemeConfig, theme } from 'antd';
import type { ThemeMode } from './theme-mode';

// One brand colour, matched by the default logo; everything else is antd's tokens so dark mode is complete.
export const BRAND_COLOR = '#4f46e5';

export function buildAntdTheme(mode: ThemeMode): ThemeConfig {
  const dark = mode === 'dark';
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: BRAND_COLOR,
      colorInfo: BRAND_COLOR,
      borderRadius: 8,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', Roboto, 'Helvetica Neue', Arial, sans-serif",
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
