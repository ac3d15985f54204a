import type { PasskeyStatusView, SessionUser } from '@gateway/shared';
import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, requestEnvelope } from '../../lib/api';
import { clearSessionExpired, setStoredUser } from '../../lib/session';

export const passkeysKey = ['user', 'passkeys'] as const;

/** A begin route's answer, the family's shape: the WebAuthn options under `publicKey`. */
interface Begun<T> {
  options: { publicKey: T };
}

/** The caller's passkeys. */
export function usePasskeys() {
  return useQuery({ queryKey: passkeysKey, queryFn: () => api.get<PasskeyStatusView>('/api/user/passkey') });
}

/** Adds a passkey: the server's challenge, the browser's prompt, the server's check. Resolves to the answer's text. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const begun = await api.post<Begun<PublicKeyCredentialCreationOptionsJSON>>('/api/user/passkey/register/begin');
      const credential = await startRegistration({ optionsJSON: begun.options.publicKey });
      const done = await requestEnvelope('POST', '/api/user/passkey/register/finish', {
        body: { ...credential, name: name.trim() || undefined },
      });
      return done.message;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => api.put(`/api/user/passkey/${id}`, { name }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

export function useDeletePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/user/passkey/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeysKey }),
  });
}

/** Signs in with any passkey of this site the browser offers; stored like a password sign-in. */
export function usePasskeyLogin() {
  return useMutation({
    mutationFn: async () => {
      const begun = await api.post<Begun<PublicKeyCredentialRequestOptionsJSON>>('/api/user/passkey/login/begin');
      const assertion = await startAuthentication({ optionsJSON: begun.options.publicKey });
      return api.post<SessionUser>('/api/user/passkey/login/finish', assertion);
    },
    onSuccess: (user) => {
      clearSessionExpired();
      setStoredUser(user);
    },
  });
}

/** Admin: removes every passkey of a user (who then signs in another way and adds new ones). */
export function useResetUserPasskeys() {
  return useMutation({
    mutationFn: async (userId: number) =>
      (await requestEnvelope('DELETE', `/api/user/${userId}/reset_passkey`)).message,
  });
}
