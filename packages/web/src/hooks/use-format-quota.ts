import { useCallback } from 'react';
import { formatQuotaForStatus } from '../lib/quota';
import { usePublicStatus } from './use-status';

/** Quota as the operator wants it shown (dollars or abbreviated units), following the live status. */
export function useFormatQuota(): (quota: number) => string {
  const status = usePublicStatus();
  const { quota_per_unit, display_in_currency } = status;
  return useCallback(
    (quota: number) => formatQuotaForStatus(quota, { quota_per_unit, display_in_currency }),
    [quota_per_unit, display_in_currency],
  );
}
