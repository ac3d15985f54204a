import type { Language } from '@gateway/shared';
import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider, type ConfigProviderProps } from 'antd';
import enUS from 'antd/locale/en_US';
import frFR from 'antd/locale/fr_FR';
import jaJP from 'antd/locale/ja_JP';
import ruRU from 'antd/locale/ru_RU';
import viVN from 'antd/locale/vi_VN';
import zhCN from 'antd/locale/zh_CN';
import zhTW from 'antd/locale/zh_TW';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../lib/i18n';
import { setNotifySink } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { buildAntdTheme } from './theme/antd-theme';
import { ThemeModeProvider, useThemeMode } from './theme/theme-mode';

/** antd's own texts (pagination, pickers, empty states, confirm buttons) in the console's language. */
const ANTD_LOCALES: Record<Language, NonNullable<ConfigProviderProps['locale']>> = {
  zh: zhCN,
  en: enUS,
  'zh-TW': zhTW,
  ja: jaJP,
  fr: frFR,
  ru: ruRU,
  vi: viVN,
};

/** Hands antd's context-aware message API to code outside React (see lib/notify). */
function NotifyBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => {
    setNotifySink({
      success: (text) => void message.success(text),
      error: (text) => void message.error(text),
      info: (text) => void message.info(text),
      warning: (text) => void message.warning(text),
    });
  }, [message]);
  return null;
}

function AntdProviders({ children }: { children: ReactNode }) {
  const { mode } = useThemeMode();
  // Subscribes to language changes; the language itself is read the one way the whole console reads it.
  useTranslation();
  const locale = ANTD_LOCALES[currentLanguage()];
  return (
    // No auto space inside two-character Chinese button labels: "登录" stays "登录" for readers and for tests.
    <ConfigProvider theme={buildAntdTheme(mode)} locale={locale} button={{ autoInsertSpace: false }}>
      <AntdApp>
        <NotifyBridge />
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ThemeModeProvider>
        <AntdProviders>{children}</AntdProviders>
      </ThemeModeProvider>
    </QueryClientProvider>
  );
}
