import type { SessionUser } from '@gateway/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { currentLanguage } from '../../lib/i18n';
import { readStorage } from '../../lib/storage';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import { selfQueryKey } from '../use-self';

/** What the Telegram login widget hands its callback: the signed fields, passed on untouched. */
export type TelegramAuthData = Record<string, string | number>;

function asQuery(data: TelegramAuthData): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, String(value)]));
}

/** `GET /api/oauth/telegram/login` with the widget's data (and, unsigned, the interface language). */
export function useTelegramLogin() {
  return useMutation({
    mutationFn: (data: TelegramAuthData) =>
      api.get<SessionUser>('/api/oauth/telegram/login', {
        query: { ...asQuery(data), lang: currentLanguage(), aff: readStorage(STORAGE_KEYS.aff) ?? undefined },
      }),
  });
}

/** `GET /api/oauth/telegram/bind` for the signed-in account. */
export function useTelegramBind() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (data: TelegramAuthData) => api.get<void>('/api/oauth/telegram/bind', { query: asQuery(data) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfQueryKey }),
  });
}
