import { useMutation } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';
import i18n from '../../../lib/i18n';

/** The hosted checkout page's address, checked before the browser is sent there. */
function checkoutUrl(url: unknown): string {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url))
    throw new ApiError(i18n.t('wallet.request_failed'), 'business');
  return url;
}

/** Creates a Stripe order (`POST /api/user/stripe/pay`) and answers the Checkout page to send the browser to. */
export function useStripePay() {
  return useMutation({
    mutationFn: async (amount: number) => {
      const data = await api.post<{ pay_link?: unknown }>('/api/user/stripe/pay', { amount, payment_method: 'stripe' });
      return checkoutUrl(data?.pay_link);
    },
    meta: { silentError: true },
  });
}

/** Creates a Creem order for a product (`POST /api/user/creem/pay`) and answers its checkout page. */
export function useCreemPay() {
  return useMutation({
    mutationFn: async (productId: string) => {
      const data = await api.post<{ checkout_url?: unknown }>('/api/user/creem/pay', {
        product_id: productId,
        payment_method: 'creem',
      });
      return checkoutUrl(data?.checkout_url);
    },
    meta: { silentError: true },
  });
}

/** Leaves the console for the provider's hosted checkout. */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}
