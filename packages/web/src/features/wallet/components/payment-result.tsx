import { useQueryClient } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { selfQueryKey } from '../../../hooks/use-self';
import { subscriptionQueryKey } from '../../../lib/subscriptions';
import { topUpHistoryKey } from '../api/use-topup-history';

const OUTCOMES = {
  success: { type: 'success', key: 'wallet.pay_success' },
  pending: { type: 'info', key: 'wallet.pay_pending' },
  fail: { type: 'error', key: 'wallet.pay_fail' },
} as const;

/**
 * The payment gateway sends the payer back through the server (`/api/user/epay/return`), which checks the signed
 * result and lands here with `?pay=success|pending|fail`. Success refreshes the balance at once.
 */
export function PaymentResult() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const pay = params.get('pay');
  const outcome = pay && pay in OUTCOMES ? OUTCOMES[pay as keyof typeof OUTCOMES] : null;

  useEffect(() => {
    if (pay !== 'success') return;
    void queryClient.invalidateQueries({ queryKey: selfQueryKey });
    void queryClient.invalidateQueries({ queryKey: topUpHistoryKey });
    // A plan bought through a gateway comes back the same way.
    void queryClient.invalidateQueries({ queryKey: subscriptionQueryKey });
  }, [pay, queryClient]);

  if (!outcome) return null;
  const dismiss = () => {
    const next = new URLSearchParams(params);
    next.delete('pay');
    setParams(next, { replace: true });
  };
  return (
    <Alert
      type={outcome.type}
      showIcon
      title={t(outcome.key)}
      closable={{ onClose: dismiss }}
      data-testid="wallet-pay-result"
    />
  );
}
