import type { PricingEntry, PricingResponse } from '@gateway/shared';
import { useQuery } from '@tanstack/react-query';
import { requestEnvelope } from '../lib/api';

export const pricingQueryKey = ['pricing'] as const;

/**
 * The public price list. The group ratios and usable groups travel beside `data` in the envelope (family shape),
 * and they depend on who is asking, so the signed-in user is part of the key.
 */
export function usePricing(userId: number | null) {
  return useQuery({
    queryKey: [...pricingQueryKey, userId],
    queryFn: async ({ signal }): Promise<PricingResponse> => {
      const envelope = (await requestEnvelope<PricingEntry[]>('GET', '/api/pricing', {
        signal,
      })) as Partial<PricingResponse>;
      return {
        success: true,
        message: envelope.message ?? '',
        data: envelope.data ?? [],
        group_ratio: envelope.group_ratio ?? {},
        usable_group: envelope.usable_group ?? {},
        vendors: envelope.vendors ?? [],
      };
    },
  });
}
