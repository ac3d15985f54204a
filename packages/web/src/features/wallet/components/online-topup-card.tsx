import {
  AlipayCircleOutlined,
  BankOutlined,
  CreditCardOutlined,
  LoadingOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Flex, InputNumber, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import { goToCheckout, useStripePay } from '../api/use-card-pay';
import { usePay } from '../api/use-pay';
import { usePayQuote } from '../api/use-pay-quote';
import { useTopUpInfo } from '../api/use-topup-info';
import { submitPaymentForm } from '../submit-payment-form';
import { discountOf, minimumAmount, type PaymentMethod, presetsFrom, type TopUpMethod } from '../types';
import { useDebouncedValue } from '../use-debounced-value';
import { PayConfirmModal } from './pay-confirm-modal';

const METHODS: Record<TopUpMethod, { labelKey: string; icon: ReactNode; className: string }> = {
  zfb: { labelKey: 'wallet.method_zfb', icon: <AlipayCircleOutlined />, className: 'wallet-pay-zfb' },
  wx: { labelKey: 'wallet.method_wx', icon: <WechatOutlined />, className: 'wallet-pay-wx' },
  stripe: { labelKey: 'wallet.method_stripe', icon: <BankOutlined />, className: 'wallet-pay-stripe' },
};
const EPAY_METHODS: PaymentMethod[] = ['zfb', 'wx'];

/**
 * Online top-up through the operator's epay gateway and, when set up, by card through Stripe Checkout. The top-up
 * info says which are enabled, the minimums, the quick picks and their discounts; a refusal from the server
 * (amount too small, …) is still shown in place.
 */
export function OnlineTopUpCard() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(status);
  const info = useTopUpInfo();
  // Only a definite "off" from the server disables epay (an unreadable answer leaves the buttons usable).
  const epayOn = info.data?.enable_online_topup !== false;
  const stripeOn = info.data?.enable_stripe_topup === true;
  const disabled = !epayOn && !stripeOn;
  const min = minimumAmount(epayOn ? (info.data?.min_topup ?? status.min_topup) : info.data?.stripe_min_topup);
  const methods: TopUpMethod[] = [...(epayOn ? EPAY_METHODS : []), ...(stripeOn ? (['stripe'] as const) : [])];
  // undefined: untouched, so the amount follows the minimum (the status may arrive after the first paint).
  const [entered, setEntered] = useState<number | null | undefined>(undefined);
  const [confirming, setConfirming] = useState<TopUpMethod | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const pay = usePay();
  const stripePay = useStripePay();
  const paying = pay.isPending || stripePay.isPending;

  const amount = entered === undefined ? min : entered;
  const valid = amount !== null && Number.isInteger(amount) && amount >= min;
  const amountError =
    amount === null ? t('errors:pay_amount_invalid') : amount < min ? t('errors:pay_amount_too_small', { min }) : null;
  const quoteAmount = useDebouncedValue(valid ? amount : null, 400);
  const quote = usePayQuote(quoteAmount, 'epay', epayOn);
  const stripeQuote = usePayQuote(quoteAmount, 'stripe', stripeOn);
  const quoteSettled = quoteAmount === (valid ? amount : null);

  const setAmount = (value: number | null) => {
    // Whole units, never below 1 (the spec forces at least 1; the minimum is checked on top).
    setEntered(value === null ? null : Math.max(1, Math.trunc(value)));
    setPayError(null);
  };

  const startPay = (method: TopUpMethod) => {
    if (disabled) {
      notify.error(t('errors:pay_not_enabled'));
      return;
    }
    if (!valid) {
      notify.error(amountError ?? t('errors:pay_amount_invalid'));
      return;
    }
    setPayError(null);
    setConfirming(method);
  };

  const failed = (error: unknown) => {
    setPayError(error instanceof Error ? error.message : String(error));
    setConfirming(null);
  };

  const confirmPay = () => {
    if (!confirming || !valid) return;
    if (confirming === 'stripe') {
      stripePay.mutate(amount, {
        onSuccess: (url) => {
          notify.info(t('wallet.redirecting'));
          goToCheckout(url);
          setConfirming(null);
        },
        onError: failed,
      });
      return;
    }
    pay.mutate(
      { amount, payment_method: confirming },
      {
        onSuccess: (order) => {
          notify.info(t('wallet.redirecting'));
          submitPaymentForm(order.url, order.fields);
          setConfirming(null);
        },
        onError: failed,
      },
    );
  };

  /** A quote's state as shown: a dash, loading, the server's refusal, or the money. */
  const shown = (which: typeof quote, moneyKey: string): ReactNode => {
    if (!valid) return <Typography.Text type="secondary">—</Typography.Text>;
    if (!quoteSettled || which.isFetching)
      return (
        <Typography.Text type="secondary">
          <LoadingOutlined /> {t('wallet.payable_loading')}
        </Typography.Text>
      );
    if (which.isError) return <Typography.Text type="danger">{(which.error as Error).message}</Typography.Text>;
    return <span className="wallet-payable-value">{t(moneyKey, { money: which.data })}</span>;
  };
  const quoteOf = (method: TopUpMethod) => (method === 'stripe' ? stripeQuote : quote);
  const moneyKeyOf = (method: TopUpMethod) => (method === 'stripe' ? 'wallet.money_card' : 'wallet.money');

  // The operator has not set up a payment gateway: no payment method works, so none is offered.
  if (disabled) return null;
  // Until the server says whether paying is on, a skeleton: buttons shown and then taken away read as broken.
  if (info.isPending) return <Card className="wallet-card" loading data-testid="wallet-topup-loading" />;

  return (
    <Card
      className="wallet-card"
      title={
        <Flex align="center" gap={8}>
          <CreditCardOutlined />
          {t('wallet.online_title')}
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        {info.isError && <Alert type="error" showIcon title={(info.error as Error).message} />}
        <div>
          <label className="wallet-label" htmlFor="wallet-amount">
            {t('wallet.amount')}
          </label>
          <InputNumber
            id="wallet-amount"
            data-testid="wallet-amount"
            value={amount}
            min={1}
            precision={0}
            step={1}
            status={amountError ? 'error' : undefined}
            onChange={(value) => setAmount(typeof value === 'number' ? value : null)}
            style={{ width: '100%' }}
            size="large"
          />
          <div className="wallet-hint">
            {amountError ? (
              <Typography.Text type="danger">{amountError}</Typography.Text>
            ) : (
              <Typography.Text type="secondary">
                {t('wallet.amount_help', { min, value: formatQuota((amount ?? 0) * quotaPerUnit) })}
              </Typography.Text>
            )}
          </div>
          <div className="wallet-presets">
            {presetsFrom(info.data?.amount_options, min).map((preset) => {
              const factor = discountOf(info.data?.discount, preset);
              return (
                <Button
                  key={preset}
                  type={amount === preset ? 'primary' : 'default'}
                  ghost={amount === preset}
                  onClick={() => setAmount(preset)}
                  className="wallet-preset"
                >
                  {preset}
                  {factor !== null && (
                    <span className="wallet-preset-discount">
                      {t('wallet.discount', {
                        value: Number((factor * 10).toFixed(2)),
                        percent: Math.round((1 - factor) * 100),
                      })}
                    </span>
                  )}
                </Button>
              );
            })}
          </div>
        </div>

        {epayOn && (
          <Flex justify="space-between" align="center" className="wallet-payable" gap={8}>
            <Typography.Text type="secondary">{t('wallet.payable')}</Typography.Text>
            <div data-testid="wallet-payable">{shown(quote, 'wallet.money')}</div>
          </Flex>
        )}
        {stripeOn && (
          <Flex justify="space-between" align="center" className="wallet-payable" gap={8}>
            <Typography.Text type="secondary">{t(epayOn ? 'wallet.payable_card' : 'wallet.payable')}</Typography.Text>
            <div data-testid="wallet-payable-stripe">{shown(stripeQuote, 'wallet.money_card')}</div>
          </Flex>
        )}

        <div className="wallet-methods">
          {methods.map((method) => (
            <Button
              key={method}
              size="large"
              icon={METHODS[method].icon}
              className={METHODS[method].className}
              onClick={() => startPay(method)}
              loading={
                method === 'stripe' ? stripePay.isPending : pay.isPending && pay.variables?.payment_method === method
              }
              data-testid={`wallet-pay-${method}`}
            >
              {t(METHODS[method].labelKey)}
            </Button>
          ))}
        </div>

        {payError && <Alert type="error" showIcon title={payError} closable={{ onClose: () => setPayError(null) }} />}
      </Flex>

      <PayConfirmModal
        open={confirming !== null}
        loading={paying}
        onOk={confirmPay}
        onCancel={() => setConfirming(null)}
      >
        {confirming && valid && (
          <Descriptions column={1} size="small" bordered className="wallet-confirm">
            <Descriptions.Item label={t('wallet.amount')}>{amount}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.credit')}>{formatQuota(amount * quotaPerUnit)}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.payable')}>
              {quoteOf(confirming).data && quoteSettled
                ? t(moneyKeyOf(confirming), { money: quoteOf(confirming).data })
                : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('wallet.method')}>
              <Flex align="center" gap={6}>
                <span className={METHODS[confirming].className}>{METHODS[confirming].icon}</span>
                {t(METHODS[confirming].labelKey)}
              </Flex>
            </Descriptions.Item>
          </Descriptions>
        )}
      </PayConfirmModal>
    </Card>
  );
}
