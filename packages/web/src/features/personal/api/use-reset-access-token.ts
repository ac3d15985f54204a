import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Makes a new system access token (`GET /api/user/token`); the old one stops working at once. */
export function useResetAccessToken() {
  return useMutation({
    mutationFn: () => api.get<string>('/api/user/token'),
  });
}
