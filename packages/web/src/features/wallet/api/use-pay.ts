import type { ApiEnvelope } from '@gateway/shared';
import { useMutation } from '@tanstack/react-query';
import { ApiError, requestEnvelope } from '../../../lib/api';
import i18n from '../../../lib/i18n';
import type { PayFields, PaymentMethod, PayOrder } from '../types';

type PayEnvelope = ApiEnvelope<PayFields> & { url?: unknown };

/**
 * Creates an online top-up order. The gateway's address comes beside `data` (a top-level `url`), so this reads
 * the whole envelope. Failures (online top-up not enabled, amount under the minimum) are shown by the card.
 */
export function usePay() {
  return useMutation({
    mutationFn: async (input: { amount: number; payment_method: PaymentMethod }): Promise<PayOrder> => {
      const envelope: PayEnvelope = await requestEnvelope<PayFields>('POST', '/api/user/pay', { body: input });
      if (typeof envelope.url !== 'string' || !envelope.url || !envelope.data || typeof envelope.data !== 'object') {
        throw new ApiError(i18n.t('wallet.request_failed'), 'business');
      }
      return { url: envelope.url, fields: envelope.data };
    },
    meta: { silentError: true },
  });
}
