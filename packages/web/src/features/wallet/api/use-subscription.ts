import type { ApiEnvelope } from '@gateway/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { selfQueryKey } from '../../../hooks/use-self';
import { ApiError, api, requestEnvelope } from '../../../lib/api';
import i18n from '../../../lib/i18n';
import {
  type BillingPreference,
  type PlanEntry,
  planOf,
  type SubscriptionSelf,
  subscriptionPlansQueryKey,
  subscriptionQueryKey,
  subscriptionSelfQueryKey,
} from '../../../lib/subscriptions';
import type { PayFields, PayOrder } from '../types';
import { topUpHistoryKey } from './use-topup-history';

/** The plans on sale (`GET /api/subscription/plans`). The card shows a failure in place. */
export function useSubscriptionPlans() {
  return useQuery({
    queryKey: subscriptionPlansQueryKey,
    queryFn: async ({ signal }) =>
      ((await api.get<PlanEntry[] | null>('/api/subscription/plans', { signal })) ?? []).map(planOf),
    meta: { silentError: true },
  });
}

/** The caller's subscriptions and billing preference (`GET /api/subscription/self`). */
export function useSubscriptionSelf() {
  return useQuery({
    queryKey: subscriptionSelfQueryKey,
    queryFn: ({ signal }) => api.get<SubscriptionSelf>('/api/subscription/self', { signal }),
    meta: { silentError: true },
  });
}

export function useBillingPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (preference: BillingPreference) =>
      api.put<{ billing_preference: BillingPreference }>('/api/subscription/self/preference', {
        billing_preference: preference,
      }),
    onSuccess: (data) =>
      queryClient.setQueryData<SubscriptionSelf>(subscriptionSelfQueryKey, (previous) =>
        previous && data ? { ...previous, billing_preference: data.billing_preference } : previous,
      ),
  });
}

/** How a plan is paid: the wallet balance, epay's methods, a card through Stripe, or Creem. */
export type PlanPayMethod = 'balance' | 'zfb' | 'wx' | 'stripe' | 'creem';

/** What a purchase leads to: done (balance), an epay form to post, or a hosted checkout to go to. */
export type PlanPurchase = { kind: 'done' } | { kind: 'epay'; order: PayOrder } | { kind: 'checkout'; url: string };

function failed(): ApiError {
  return new ApiError(i18n.t('wallet.request_failed'), 'business');
}

function checkoutUrl(url: unknown): string {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw failed();
  return url;
}

type EpayEnvelope = ApiEnvelope<PayFields> & { url?: unknown };

/** The epay form, as for top-ups: the signed fields in `data` and the gateway's address in a top-level `url`. */
function epayOrder(envelope: EpayEnvelope): PayOrder {
  if (typeof envelope.url !== 'string' || !envelope.url || !envelope.data || typeof envelope.data !== 'object')
    throw failed();
  return { url: envelope.url, fields: envelope.data };
}

/** Buys a plan. With the balance it is done at once, so the balance and the subscriptions are read again. */
export function useBuyPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ planId, method }: { planId: number; method: PlanPayMethod }): Promise<PlanPurchase> => {
      const body = { plan_id: planId };
      switch (method) {
        case 'balance':
          await api.post<unknown>('/api/subscription/balance/pay', body);
          return { kind: 'done' };
        case 'stripe': {
          const data = await api.post<{ pay_link?: unknown }>('/api/subscription/stripe/pay', body);
          return { kind: 'checkout', url: checkoutUrl(data?.pay_link) };
        }
        case 'creem': {
          const data = await api.post<{ checkout_url?: unknown }>('/api/subscription/creem/pay', body);
          return { kind: 'checkout', url: checkoutUrl(data?.checkout_url) };
        }
        default: {
          const envelope: EpayEnvelope = await requestEnvelope('POST', '/api/subscription/epay/pay', {
            body: { ...body, payment_method: method },
          });
          return { kind: 'epay', order: epayOrder(envelope) };
        }
      }
    },
    onSuccess: (purchase) => {
      if (purchase.kind !== 'done') return;
      void queryClient.invalidateQueries({ queryKey: subscriptionQueryKey });
      void queryClient.invalidateQueries({ queryKey: selfQueryKey });
      void queryClient.invalidateQueries({ queryKey: topUpHistoryKey });
    },
    meta: { silentError: true },
  });
}
