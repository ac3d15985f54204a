import type { SessionUser } from '@gateway/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { readStorage } from '../../lib/storage';
import { STORAGE_KEYS } from '../../lib/storage-keys';
import { selfQueryKey } from '../use-self';

/** Signs in with the code the official account replied with (`GET /api/oauth/wechat?code=`). */
export function useWechatLogin() {
  return useMutation({
    mutationFn: (code: string) =>
      api.get<SessionUser>('/api/oauth/wechat', {
        query: { code, aff: readStorage(STORAGE_KEYS.aff) ?? undefined },
      }),
  });
}

/** Binds WeChat to the signed-in account (`GET /api/oauth/wechat/bind?code=`). */
export function useWechatBind() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.get<void>('/api/oauth/wechat/bind', { query: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfQueryKey }),
  });
}
