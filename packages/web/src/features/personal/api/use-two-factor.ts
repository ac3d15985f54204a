import type { TwoFactorBackupCodesView, TwoFactorSetupView, TwoFactorStatusView } from '@gateway/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { twoFactorStatusQueryKey as statusKey } from '../../../lib/query-keys';

/** `GET /api/user/2fa/status`: whether the caller's two-factor sign-in is on, and how many backup codes are left. */
export function useTwoFactorStatus() {
  return useQuery({ queryKey: statusKey, queryFn: () => api.get<TwoFactorStatusView>('/api/user/2fa/status') });
}

/** A mutation of the 2FA routes that refreshes the status afterwards. */
function useTwoFactorChange<TInput, TResult>(change: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => client.invalidateQueries({ queryKey: statusKey }),
  });
}

export const useStartTwoFactorSetup = () =>
  useTwoFactorChange(() => api.post<TwoFactorSetupView>('/api/user/2fa/setup'));

export const useEnableTwoFactor = () =>
  useTwoFactorChange((code: string) => api.post<undefined>('/api/user/2fa/enable', { code }));

export const useDisableTwoFactor = () =>
  useTwoFactorChange((code: string) => api.post<undefined>('/api/user/2fa/disable', { code }));

export const useRegenerateBackupCodes = () =>
  useTwoFactorChange((code: string) => api.post<TwoFactorBackupCodesView>('/api/user/2fa/backup_codes', { code }));
