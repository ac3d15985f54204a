import { Alert, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TelegramAuthData } from '../../hooks/oauth/use-telegram-auth';
import './oauth.css';

export const TELEGRAM_WIDGET_URL = 'https://telegram.org/js/telegram-widget.js?22';

declare global {
  interface Window {
    /** The widget calls a global function by name (its `data-onauth` attribute). */
    __gatewayTelegramAuth?: (user: TelegramAuthData) => void;
  }
}

/**
 * Telegram's login widget: its script renders the "Log in with Telegram" button into the element it is placed in
 * and calls back with the signed user data. Loaded only when shown, so other visitors never contact Telegram.
 */
export function TelegramWidget({ botName, onAuth }: { botName: string; onAuth: (data: TelegramAuthData) => void }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const callback = useRef(onAuth);
  callback.current = onAuth;

  useEffect(() => {
    const host = container.current;
    if (!host) return;
    window.__gatewayTelegramAuth = (user) => callback.current(user);
    const script = document.createElement('script');
    script.src = TELEGRAM_WIDGET_URL;
    script.async = true;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'large');
    script.setAttribute('data-request-access', 'write');
    script.setAttribute('data-onauth', '__gatewayTelegramAuth(user)');
    script.onload = () => setState('ready');
    script.onerror = () => setState('failed');
    host.appendChild(script);
    return () => {
      host.replaceChildren();
      delete window.__gatewayTelegramAuth;
    };
  }, [botName]);

  return (
    <div>
      {state === 'loading' && (
        <div className="oauth-telegram-widget">
          <Spin />
        </div>
      )}
      {state === 'failed' && <Alert type="error" showIcon title={t('oauth.telegram_unavailable')} />}
      <div ref={container} className="oauth-telegram-widget" data-testid="telegram-widget" />
    </div>
  );
}
