import type { Language, PublicStatus } from '@gateway/shared';
import { Alert } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../app/theme/theme-mode';
import { currentLanguage } from '../../lib/i18n';
import { loadTurnstile } from './turnstile-script';

/** Cloudflare's name for each of our languages. */
const TURNSTILE_LANGUAGES: Record<Language, string> = {
  zh: 'zh-CN',
  en: 'en',
  'zh-TW': 'zh-TW',
  ja: 'ja',
  fr: 'fr',
  ru: 'ru',
  vi: 'vi',
};

interface TurnstileWidgetProps {
  siteKey: string;
  onToken(token: string): void;
  /** Bumped by the page after each use: a Turnstile token is good for one check only. */
  generation: number;
}

/** Cloudflare's human-check widget, in the console's theme and language. */
export function TurnstileWidget({ siteKey, onToken, generation }: TurnstileWidgetProps) {
  const { t } = useTranslation();
  const { mode } = useThemeMode();
  const container = useRef<HTMLDivElement>(null);
  const widgetId = useRef<string | null>(null);
  const [failed, setFailed] = useState(false);
  // The callback is read through a ref so a new function from the page does not re-create the widget.
  const tokenSink = useRef(onToken);
  tokenSink.current = onToken;

  useEffect(() => {
    let cancelled = false;
    setFailed(false);
    loadTurnstile()
      .then((turnstile) => {
        if (cancelled || !container.current) return;
        widgetId.current =
          turnstile.render(container.current, {
            sitekey: siteKey,
            callback: (token) => tokenSink.current(token),
            'expired-callback': () => tokenSink.current(''),
            'error-callback': () => tokenSink.current(''),
            theme: mode,
            language: TURNSTILE_LANGUAGES[currentLanguage()],
            size: 'flexible',
          }) ?? null;
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      if (widgetId.current && window.turnstile) window.turnstile.remove(widgetId.current);
      widgetId.current = null;
    };
  }, [siteKey, mode]);

  useEffect(() => {
    if (generation === 0 || !widgetId.current || !window.turnstile) return;
    tokenSink.current('');
    window.turnstile.reset(widgetId.current);
  }, [generation]);

  return (
    <div data-testid="turnstile" style={{ marginBottom: 16 }}>
      <div ref={container} />
      {failed && <Alert type="error" showIcon title={t('account.turnstile_load_failed')} />}
    </div>
  );
}

/**
 * The human check for one form: whether it is on, the current token, the widget to place in the form, and
 * `renew()` to call after each submission.
 */
export function useTurnstile(status: Partial<PublicStatus>) {
  const enabled = Boolean(status.turnstile_check && status.turnstile_site_key);
  const [token, setToken] = useState('');
  const [generation, setGeneration] = useState(0);
  const renew = useCallback(() => setGeneration((value) => value + 1), []);
  const widget = enabled ? (
    <TurnstileWidget siteKey={status.turnstile_site_key ?? ''} onToken={setToken} generation={generation} />
  ) : null;
  return { enabled, token, widget, renew };
}
