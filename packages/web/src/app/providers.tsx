import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { antdLocale, currentLanguage } from '../lib/i18n';
import { setNotifySink } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { buildAntdTheme } from './theme/antd-theme';
import { ThemeModeProvider, useThemeMode } from './theme/theme-mode';

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
  const locale = antdLocale();
  return (
    // No auto space inside two-character Chinese button labels: "登录" stays "登录" for readers and for tests.
    <ConfigProvider theme={buildAntdTheme(mode, currentLanguage())} locale={locale} button={{ autoInsertSpace: false }}>
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
