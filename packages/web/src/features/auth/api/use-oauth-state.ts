import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { readStorage } from '../../../lib/storage';
import { STORAGE_KEYS } from '../../../lib/storage-keys';

/** A one-time state value for the authorisation redirect; the invite code rides along for registration. */
export function useOAuthState() {
  return useMutation({
    mutationFn: () =>
      api.get<string>('/api/oauth/state', { query: { aff: readStorage(STORAGE_KEYS.aff) ?? undefined } }),
  });
}
