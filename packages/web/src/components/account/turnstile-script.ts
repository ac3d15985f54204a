/** The parts of Cloudflare's Turnstile browser API the console uses (explicit rendering). */
export interface TurnstileApi {
  render(
    container: HTMLElement,
    params: {
      sitekey: string;
      callback: (token: string) => void;
      'expired-callback'?: () => void;
      'error-callback'?: () => void;
      theme?: 'light' | 'dark' | 'auto';
      language?: string;
      size?: 'normal' | 'flexible' | 'compact';
    },
  ): string | null | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

let loading: Promise<TurnstileApi> | null = null;

/**
 * Adds Cloudflare's script to the page once, the first time a widget is shown: visitors of a site without the
 * human check never load anything from Cloudflare.
 */
export function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT_URL;
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error('turnstile missing')));
    script.onerror = () => {
      // Let a later mount try again (a flaky network, an ad blocker switched off).
      loading = null;
      script.remove();
      reject(new Error('turnstile script failed to load'));
    };
    document.head.appendChild(script);
  });
  return loading;
}
