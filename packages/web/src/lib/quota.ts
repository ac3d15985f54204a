import { DEFAULT_QUOTA_PER_UNIT, formatQuota, type PublicStatus, type QuotaDisplay } from '@gateway/shared';

/** How the operator wants quota shown, read from the public status (with the family's defaults). */
export function quotaDisplayFrom(status: Partial<PublicStatus> | null | undefined): QuotaDisplay {
  return {
    quotaPerUnit: status?.quota_per_unit && status.quota_per_unit > 0 ? status.quota_per_unit : DEFAULT_QUOTA_PER_UNIT,
    displayInCurrency: status?.display_in_currency ?? true,
  };
}

export function formatQuotaForStatus(quota: number, status: Partial<PublicStatus> | null | undefined): string {
  return formatQuota(quota, quotaDisplayFrom(status));
}
